import { describe, expect, it } from "vitest";
import type { Message } from "../../../contracts/conversations";
import { mergeMessages } from "../../../app/components/conversations/thread";
import { live } from "../../../app/lib/live-store";

const message = (id: string, changes: Partial<Message> = {}): Message => ({
  id,
  conversation_id: "c1",
  content: `mensaje ${id}`,
  type: "text",
  direction: "inbound",
  sender_type: "customer",
  status: "delivered",
  error: null,
  error_code: null,
  media: null,
  reactions: [],
  transcript: null,
  transcript_status: null,
  transcript_error: null,
  ai_sources: [],
  suggested_by_ai: false,
  author_id: null,
  mentions: [],
  edited: false,
  deleted: false,
  imported: false,
  created_at: `2026-11-23T10:00:0${id}.000Z`,
  ...changes,
});

describe("a page of messages merged into the thread on screen", () => {
  it("takes the page's copy, keeps what arrived live, in time order, never twice", () => {
    const shown = [message("1"), message("3", { content: "en vivo" })];
    const page = [message("1", { status: "read" }), message("2")];
    const merged = mergeMessages(shown, page);
    expect(merged.map((m) => m.id)).toEqual(["1", "2", "3"]);
    expect(merged[0]!.status).toBe("read");
  });

  it("keeps an event's copy brought after the page was asked for", () => {
    live.message(message("1", { transcript_status: "pending" })); // before the page was asked
    const asked = live.mark();
    const done = message("1", { transcript_status: "done", transcript: "Quería cita" });
    live.message(done); // while the page travelled
    const page = [message("1", { transcript_status: "pending" }), message("2")];

    const merged = mergeMessages([done], page, [], live.messagesSince(asked));
    expect(merged[0]).toEqual(done);
    // Without the marks, the page's older copy would undo the event.
    expect(mergeMessages([done], page)[0]!.transcript_status).toBe("pending");
  });

  it("lets a page asked for after an event win", () => {
    live.message(message("1", { status: "sent" }));
    const asked = live.mark();
    const merged = mergeMessages(
      [],
      [message("1", { status: "read" })],
      [],
      live.messagesSince(asked),
    );
    expect(merged[0]!.status).toBe("read");
  });
});
