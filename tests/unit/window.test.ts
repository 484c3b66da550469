import { describe, expect, it } from "vitest";
import {
  assertWindowOpen,
  isWindowOpen,
  SERVICE_WINDOW_MS,
  windowExpiresAt,
} from "../../durable-objects/conversations/mappers";

describe("the 24-hour customer-service window", () => {
  const lastInboundAt = "2026-11-23T10:00:00.000Z";
  const opened = Date.parse(lastInboundAt);

  it("closes 24 hours after the customer's last message", () => {
    expect(windowExpiresAt({ lastInboundAt })).toBe("2026-11-24T10:00:00.000Z");
    expect(isWindowOpen({ lastInboundAt }, opened + SERVICE_WINDOW_MS - 1)).toBe(true);
    expect(isWindowOpen({ lastInboundAt }, opened + SERVICE_WINDOW_MS)).toBe(false);
  });

  it("is closed when the customer never wrote", () => {
    expect(windowExpiresAt({ lastInboundAt: null })).toBeNull();
    expect(isWindowOpen({ lastInboundAt: null }, opened)).toBe(false);
  });

  it("refuses free text outside the window with a Spanish 422", () => {
    expect(() => assertWindowOpen({ lastInboundAt: null })).toThrow(
      expect.objectContaining({ status: 422, code: "window_closed" }),
    );
    expect(() => assertWindowOpen({ lastInboundAt: new Date().toISOString() })).not.toThrow();
  });
});
