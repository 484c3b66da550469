import { describe, expect, it } from "vitest";
import { uuidv7 } from "../../worker/db/ids";

describe("uuidv7", () => {
  it("is a version-7, variant-1 UUID carrying its millisecond", () => {
    const ms = Date.UTC(2026, 10, 23, 12, 0, 0);
    const id = uuidv7(ms + 10_000_000);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const stamp = parseInt(id.replaceAll("-", "").slice(0, 12), 16);
    expect(stamp).toBe(ms + 10_000_000);
  });

  it("sorts as text in the order ids were made, within one millisecond too", () => {
    const ms = Date.now() + 20_000_000; // ahead of any id made earlier in this isolate
    const ids = Array.from({ length: 500 }, () => uuidv7(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("never goes backwards when the clock does", () => {
    const ms = Date.now() + 30_000_000;
    const later = uuidv7(ms);
    const afterClockStep = uuidv7(ms - 5_000);
    expect(afterClockStep > later).toBe(true);
  });
});
