import { describe, expect, it } from "vitest";
import type { Conversation, ConversationList } from "../../../contracts/conversations";
import {
  filtersFromUrl,
  filtersToUrl,
  listQuery,
  patchList,
  type InboxFilters,
} from "../../../app/lib/inbox";

const conversation = (id: string, changes: Partial<Conversation> = {}): Conversation => ({
  id,
  contact: { name: null, phone_number: "34600000000", username: null, user_id: null },
  phone_number: "34600000000",
  contact_name: null,
  platform: "whatsapp",
  status: "open",
  priority: "medium",
  stage: "new",
  unread_count: 0,
  agent_id: null,
  assignee_id: null,
  labels: [],
  last_message_at: "2026-11-23T10:00:00.000Z",
  last_message: "Hola",
  fbclid: null,
  ctwa_clid: null,
  ad_id: null,
  ad_headline: null,
  window_expires_at: null,
  ai_paused_until: null,
  controlled_by: "app",
  marketing_opt_out: null,
  marketing_limited_until: null,
  ai_error: null,
  ai_draft: null,
  created_at: "2026-11-23T10:00:00.000Z",
  updated_at: "2026-11-23T10:00:00.000Z",
  ...changes,
});

const page = (ids: string[], total = ids.length, limit = 20): ConversationList => ({
  conversations: ids.map((id) => conversation(id)),
  total,
  page: 1,
  limit,
});

const inbox = (changes: Partial<InboxFilters> = {}) =>
  filtersFromUrl(filtersToUrl({ ...filtersFromUrl(new URLSearchParams()), ...changes }));

const ids = (list: ConversationList) => list.conversations.map((c) => c.id);

describe("the inbox's URL", () => {
  it("round-trips every filter and the page", () => {
    const filters: InboxFilters = {
      search: "cita",
      status: "pending",
      priority: "high",
      stage: "lead",
      agent: "agent-1",
      unassigned: false,
      assignee: "me",
      label: "label-1",
      page: 3,
    };
    expect(filtersFromUrl(filtersToUrl(filters))).toEqual(filters);
    expect(filtersToUrl(inbox()).toString()).toBe("");
  });

  it("reads unknown values as no filter, and asks the API for what it shows", () => {
    const filters = filtersFromUrl(new URLSearchParams("status=borrado&page=-2&stage=lead"));
    expect(filters).toMatchObject({ status: "", page: 1, stage: "lead" });
    expect(listQuery(filters)).toEqual({ page: "1", limit: "20", stage: "lead" });
    expect(listQuery(inbox({ agent: "a1" }))).toMatchObject({ agent_id: "a1" });
    expect(listQuery(inbox({ agent: "a1", unassigned: true }))).toEqual({
      page: "1",
      limit: "20",
      unassigned: "true",
    });
  });
});

describe("the team inbox's filters", () => {
  it("asks the API for a person's conversations and a label's", () => {
    expect(listQuery(inbox({ assignee: "me", label: "l1" }))).toMatchObject({
      assignee_id: "me",
      label_id: "l1",
    });
    expect(filtersToUrl(inbox({ assignee: "none" })).toString()).toBe("assignee_id=none");
  });

  it("drops a row that leaves the person's or the label's list, and lets the server say for 'me'", () => {
    const held = page(["a", "b"]);
    const byMarta = inbox({ assignee: "marta" });
    const released = patchList(held, byMarta, conversation("a", { assignee_id: null }), {
      newMessage: false,
    });
    expect(ids(released.list)).toEqual(["b"]);
    const labelled = inbox({ label: "vip" });
    const unlabelled = patchList(held, labelled, conversation("a"), { newMessage: false });
    expect(ids(unlabelled.list)).toEqual(["b"]);
    // "Mis conversaciones": a conversation handed to someone else leaves it.
    const mine = inbox({ assignee: "me" });
    const handed = patchList(held, mine, conversation("a", { assignee_id: "luis" }), {
      newMessage: false,
      me: "marta",
    });
    expect(ids(handed.list)).toEqual(["b"]);
    const kept = patchList(held, mine, conversation("a", { assignee_id: "marta" }), {
      newMessage: false,
      me: "marta",
    });
    expect(ids(kept.list)).toEqual(["a", "b"]);
  });
});

describe("a realtime event on the page on screen", () => {
  it("moves a row with a new message to the top, without asking the server", () => {
    const patched = patchList(
      page(["a", "b", "c"]),
      inbox(),
      conversation("c", { last_message: "¿Hay cita?" }),
      {
        newMessage: true,
      },
    );
    expect(ids(patched.list)).toEqual(["c", "a", "b"]);
    expect(patched.list.conversations[0]!.last_message).toBe("¿Hay cita?");
    expect(patched.stale).toBe(false);
  });

  it("puts a conversation that was not on the page on top and asks for the true total", () => {
    const patched = patchList(page(["a", "b"], 2, 2), inbox(), conversation("n"), {
      newMessage: true,
    });
    expect(ids(patched.list)).toEqual(["n", "a"]);
    expect(patched.stale).toBe(true);
  });

  it("drops a row that stops matching the filters", () => {
    const filters = inbox({ status: "open" });
    const closed = conversation("b", { status: "closed" });
    const patched = patchList(page(["a", "b"]), filters, closed, { newMessage: false });
    expect(ids(patched.list)).toEqual(["a"]);
    expect(patched.list.total).toBe(1);
    expect(patched.stale).toBe(false);
    // With more rows on the next page, one of them moves up: only the server knows which.
    expect(patchList(page(["a", "b"], 30), filters, closed, { newMessage: false }).stale).toBe(
      true,
    );
  });

  it("ignores a conversation the filters hide, and leaves later pages to the server", () => {
    const assigned = conversation("x", { agent_id: "agent-2" });
    const unassignedOnly = patchList(page(["a"]), inbox({ unassigned: true }), assigned, {
      newMessage: true,
    });
    expect(ids(unassignedOnly.list)).toEqual(["a"]);
    expect(unassignedOnly.stale).toBe(false);
    const secondPage = patchList(page(["a"]), inbox({ page: 2 }), conversation("a"), {
      newMessage: true,
    });
    expect(secondPage.stale).toBe(true);
  });

  it("cannot judge a search locally", () => {
    const patched = patchList(page(["a"]), inbox({ search: "cita" }), conversation("z"), {
      newMessage: true,
    });
    expect(ids(patched.list)).toEqual(["a"]);
    expect(patched.stale).toBe(true);
  });

  it("updates a row in place when only its state changed", () => {
    const patched = patchList(page(["a", "b"]), inbox(), conversation("b", { stage: "lead" }), {
      newMessage: false,
    });
    expect(ids(patched.list)).toEqual(["a", "b"]);
    expect(patched.list.conversations[1]!.stage).toBe("lead");
    expect(patched.stale).toBe(false);
  });

  it("never puts back an older copy than the page holds (an event slower than a read)", () => {
    const list = page(["a", "b"]);
    list.conversations[1] = conversation("b", {
      stage: "customer",
      updated_at: "2026-11-23T10:00:05.000Z",
    });
    const late = conversation("b", { stage: "lead", updated_at: "2026-11-23T10:00:01.000Z" });
    const patched = patchList(list, inbox(), late, { newMessage: false });
    expect(patched.list.conversations[1]!.stage).toBe("customer");
    expect(patched.stale).toBe(false);
  });
});
