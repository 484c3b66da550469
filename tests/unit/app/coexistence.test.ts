import { describe, expect, it } from "vitest";
import {
  messageNotes,
  pausedText,
  senderLabel,
  threadControl,
} from "../../../app/components/conversations/coexistence";

const now = Date.parse("2026-11-25T10:00:00.000Z");
const inAnHour = new Date(now + 3_600_000).toISOString();
const anHourAgo = new Date(now - 3_600_000).toISOString();

describe("who sent an outbound message", () => {
  it("names the phone, Meta's AI and the product's AI; a person of the team needs no mark", () => {
    expect(senderLabel({ direction: "outbound", sender_type: "phone" })).toBe(
      "Enviado desde el móvil",
    );
    expect(senderLabel({ direction: "outbound", sender_type: "meta_ai" })).toBe("IA de Meta");
    expect(senderLabel({ direction: "outbound", sender_type: "bot" })).toBe("Agente IA");
    expect(senderLabel({ direction: "outbound", sender_type: "agent" })).toBeNull();
    expect(senderLabel({ direction: "inbound", sender_type: "customer" })).toBeNull();
  });
});

describe("a message's small words", () => {
  it("says editado and importado, and nothing of an edit once the message is deleted", () => {
    const plain = { edited: false, deleted: false, imported: false };
    expect(messageNotes(plain)).toEqual([]);
    expect(messageNotes({ ...plain, edited: true })).toEqual(["editado"]);
    expect(messageNotes({ ...plain, imported: true })).toEqual(["importado"]);
    expect(messageNotes({ ...plain, edited: true, deleted: true })).toEqual([]);
  });
});

describe("who answers the customer", () => {
  const app = { controlled_by: "app" as const, ai_paused_until: null };

  it("is Meta's AI when it holds the thread, whatever the pause", () => {
    expect(threadControl({ ...app, controlled_by: "meta_ai" }, [], now)).toEqual({
      kind: "meta_ai",
    });
    expect(threadControl({ controlled_by: "meta_ai", ai_paused_until: inAnHour }, [], now)).toEqual(
      { kind: "meta_ai" },
    );
  });

  it("is a person on the phone while the pause lasts, and no longer once it is over", () => {
    expect(threadControl({ ...app, ai_paused_until: inAnHour }, [], now)).toEqual({
      kind: "paused",
      until: inAnHour,
    });
    expect(threadControl({ ...app, ai_paused_until: anHourAgo }, [], now)).toBeNull();
  });

  it("offers the thread back to Meta's AI only when Meta's AI answered in it", () => {
    expect(threadControl(app, [{ sender_type: "customer" }, { sender_type: "phone" }], now)).toBe(
      null,
    );
    expect(threadControl(app, [{ sender_type: "meta_ai" }], now)).toEqual({ kind: "returnable" });
    expect(threadControl(app, null, now)).toBeNull();
  });
});

describe("the pause, in Spanish", () => {
  it("says until when: the time today, the day and time later", () => {
    expect(pausedText(inAnHour, now)).toMatch(
      /^La IA está en pausa hasta las \d\d:\d\d: alguien respondió desde el móvil\.$/,
    );
    const tomorrow = new Date(now + 26 * 3_600_000).toISOString();
    expect(pausedText(tomorrow, now)).toMatch(/^La IA está en pausa hasta el 26 nov, \d\d:\d\d/);
  });
});
