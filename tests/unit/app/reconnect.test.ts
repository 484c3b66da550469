import { describe, expect, it } from "vitest";
import { RECONNECT, reconnectDelay } from "../../../app/lib/realtime";

describe("the realtime client's reconnect delay", () => {
  it("starts at one second and doubles", () => {
    expect([1, 2, 3, 4].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000]);
  });

  it("never waits more than 30 seconds", () => {
    expect(reconnectDelay(6)).toBe(RECONNECT.maxDelayMs);
    expect(reconnectDelay(RECONNECT.maxAttempts)).toBe(30_000);
  });
});
