import { describe, expect, it } from "vitest";
import type { Conversation } from "../../../contracts/conversations";
import { live } from "../../../app/lib/live-store";

const conversation = (id: string, updatedAt: string, changes: Partial<Conversation> = {}) =>
  ({ id, updated_at: updatedAt, status: "open", ...changes }) as Conversation;

describe("the live store's conversations", () => {
  it("keeps the later copy by updated_at, whichever arrives last", () => {
    const id = crypto.randomUUID();
    const asked = live.mark();
    live.conversation(conversation(id, "2026-11-25T10:00:02.000Z", { status: "closed" }));
    // An event sent before that change, delivered after it.
    live.conversation(conversation(id, "2026-11-25T10:00:01.000Z", { status: "pending" }));
    const [copy] = live.conversationsSince(asked).filter((c) => c.conversation.id === id);
    expect(copy!.conversation.status).toBe("closed");
    expect(live.newest(conversation(id, "2026-11-25T10:00:01.000Z")).status).toBe("closed");
    expect(live.newest(conversation(id, "2026-11-25T10:00:03.000Z")).status).toBe("open");
  });

  it("says whether a message came after the mark, even when a later update came too", () => {
    const id = crypto.randomUUID();
    live.conversation(conversation(id, "2026-11-25T10:00:00.000Z"), { newMessage: true });
    const asked = live.mark();
    const since = () => live.conversationsSince(asked).find((c) => c.conversation.id === id);
    live.conversation(conversation(id, "2026-11-25T10:00:01.000Z"));
    expect(since()!.newMessage).toBe(false);
    live.conversation(conversation(id, "2026-11-25T10:00:02.000Z"), { newMessage: true });
    live.conversation(conversation(id, "2026-11-25T10:00:03.000Z", { status: "closed" }));
    expect(since()).toMatchObject({ newMessage: true, conversation: { status: "closed" } });
  });

  it("records realtime events: messages and their conversations", () => {
    const id = crypto.randomUUID();
    const asked = live.mark();
    const message = { id: crypto.randomUUID(), conversation_id: id, status: "sent" };
    live.record({
      type: "new_message",
      data: { message, conversation: conversation(id, "2026-11-25T10:00:00.000Z") },
    });
    live.record({ type: "message_status", data: { message: { ...message, status: "read" } } });
    expect(live.messageSince(message.id, asked)).toMatchObject({ status: "read" });
    expect(live.conversationsSince(asked).find((c) => c.conversation.id === id)).toMatchObject({
      newMessage: true,
    });
  });
});
