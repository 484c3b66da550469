import { sql } from "drizzle-orm";

/**
 * Row ids are UUIDv7: they sort by creation time, and within one millisecond by a counter
 * (RFC 9562, method 1), so rows with the same timestamp still list in the order they were
 * stored (messages of one WhatsApp delivery share a second).
 */
let lastMs = 0;
let counter = 0;

export function uuidv7(now = Date.now()): string {
  if (now <= lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = crypto.getRandomValues(new Uint16Array(1))[0]! & 0x3ff; // room to count up
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((counter >>> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A UUIDv7 made by SQL, one per row of an INSERT ... SELECT: this millisecond, then random
 * bits (rows of one statement need no order among them, so no counter).
 */
export function uuidv7Sql(now = Date.now()) {
  const time = now.toString(16).padStart(12, "0");
  return sql`${`${time.slice(0, 8)}-${time.slice(8)}-7`}
    || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1)
    || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`;
}
