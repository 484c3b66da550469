import { describe, expect, it } from "vitest";
import { addressKey } from "../../worker/http/address-key";

describe("addressKey", () => {
  it("keys an IPv4 address as it is", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey(" 203.0.113.7 ")).toBe("203.0.113.7");
  });

  it("keys an IPv6 address by its /64, however it is written", () => {
    const key = "2001:db8:0:1::/64";
    expect(addressKey("2001:db8:0:1::1")).toBe(key);
    expect(addressKey("2001:0DB8:0000:0001:ffff:ffff:ffff:ffff")).toBe(key);
    expect(addressKey("2001:db8::1:0:0:0:7")).toBe(key);
    expect(addressKey("[2001:db8:0:1::abcd]")).toBe(key);
    expect(addressKey("2001:db8:0:1::abcd%eth0")).toBe(key);
    expect(addressKey("2001:db8:0:2::1")).toBe("2001:db8:0:2::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("64:ff9b::203.0.113.7")).toBe("64:ff9b:0:0::/64");
  });

  it("keys an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(addressKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("keeps what it cannot read, bounded, and names a missing address", () => {
    expect(addressKey(null)).toBe("unknown");
    expect(addressKey("")).toBe("unknown");
    expect(addressKey("1:2:3")).toBe("1:2:3");
    expect(addressKey("1::2::3")).toBe("1::2::3");
    expect(addressKey("::ffff:999.0.0.1")).toBe("::ffff:999.0.0.1");
    expect(addressKey(`g:${"1".repeat(200)}`)).toHaveLength(64);
  });
});
