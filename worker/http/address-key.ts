/**
 * What a per-address limit counts by (logins, registrations, made-up tracking keys, refused
 * webhooks). One IPv6 subscriber usually holds a whole /64 and can pick any address in it, so
 * an IPv6 address is keyed by its /64; an IPv4 address (also one written as IPv4-mapped IPv6,
 * `::ffff:203.0.113.7`) is keyed as it is. The audit trail keeps the full address.
 */

/** The key of a client address: `203.0.113.7`, `2001:db8:0:1::/64`, or `unknown`. */
export function addressKey(ip: string | null): string {
  const address = ip
    ?.trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (!address) return "unknown";
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address.slice(0, 64);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail expanded), or null. */
function ipv6Groups(address: string): number[] | null {
  const [withoutZone] = address.split("%");
  const halves = withoutZone!.split("::");
  if (halves.length > 2) return null;
  const parse = (half: string | undefined) => {
    if (!half) return [];
    const parts = half.split(":");
    const groups: number[] = [];
    for (const [i, part] of parts.entries()) {
      const ipv4 = i === parts.length - 1 ? IPV4.exec(part) : null;
      if (ipv4) {
        const bytes = ipv4.slice(1).map(Number);
        if (bytes.some((b) => b > 255)) return null;
        groups.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
      } else if (HEX_GROUP.test(part)) {
        groups.push(parseInt(part, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}
