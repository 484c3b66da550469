/**
 * The inbox's state as the URL holds it (filters, search, page), the API query it becomes,
 * and how a realtime event changes the page on screen without asking the server again.
 */
import {
  CONVERSATION_PAGE_SIZE,
  CONVERSATION_STATUSES,
  PRIORITIES,
  type Conversation,
  type ConversationList,
  type ConversationStatus,
  type Priority,
} from "../../contracts/conversations";
import { CONVERSATION_STAGES, type ConversationStage } from "../../contracts/sales";
import { olderConversation } from "./live-store";

export interface InboxFilters {
  search: string;
  status: ConversationStatus | "";
  priority: Priority | "";
  stage: ConversationStage | "";
  /** An agent's id, or "unassigned". */
  agent: string;
  /** The "Solo sin asignar" switch. */
  unassigned: boolean;
  /** Who holds it: "" (anyone), "me" ("Mis conversaciones"), "none" or a member's id. */
  assignee: string;
  /** A label's id, or "". */
  label: string;
  page: number;
}

/** `value` if it is one of `allowed`, else "" (no filter). */
export const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | "" =>
  allowed.find((a) => a === value) ?? "";

/** The filters a URL asks for; anything unknown reads as "no filter". */
export function filtersFromUrl(params: URLSearchParams): InboxFilters {
  const page = Number(params.get("page"));
  return {
    search: (params.get("search") ?? "").trim().slice(0, 200),
    status: oneOf(params.get("status"), CONVERSATION_STATUSES),
    priority: oneOf(params.get("priority"), PRIORITIES),
    stage: oneOf(params.get("stage"), CONVERSATION_STAGES),
    agent: (params.get("agent") ?? "").slice(0, 64),
    unassigned: params.get("unassigned") === "true",
    assignee: (params.get("assignee_id") ?? "").slice(0, 64),
    label: (params.get("label_id") ?? "").slice(0, 64),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The URL of `filters`: only what differs from the plain inbox, so links stay short. */
export function filtersToUrl(filters: InboxFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set("search", filters.search);
  if (filters.status) params.set("status", filters.status);
  if (filters.priority) params.set("priority", filters.priority);
  if (filters.stage) params.set("stage", filters.stage);
  if (filters.agent) params.set("agent", filters.agent);
  if (filters.unassigned) params.set("unassigned", "true");
  if (filters.assignee) params.set("assignee_id", filters.assignee);
  if (filters.label) params.set("label_id", filters.label);
  if (filters.page > 1) params.set("page", String(filters.page));
  return params;
}

/** The query of `GET /conversations` for these filters. */
export function listQuery(filters: InboxFilters) {
  return {
    page: String(filters.page),
    limit: String(CONVERSATION_PAGE_SIZE),
    ...(filters.search && { search: filters.search }),
    ...(filters.status && { status: filters.status }),
    ...(filters.priority && { priority: filters.priority }),
    ...(filters.stage && { stage: filters.stage }),
    ...(filters.assignee && { assignee_id: filters.assignee }),
    ...(filters.label && { label_id: filters.label }),
    ...(filters.unassigned
      ? { unassigned: "true" as const }
      : filters.agent
        ? { agent_id: filters.agent }
        : {}),
  };
}

export const hasFilters = (filters: InboxFilters) =>
  Boolean(
    filters.search ||
    filters.status ||
    filters.priority ||
    filters.stage ||
    filters.agent ||
    filters.unassigned ||
    filters.assignee ||
    filters.label,
  );

/** Whether the list with these filters shows `conversation`; null when only the server knows. */
function shownWith(
  filters: InboxFilters,
  conversation: Conversation,
  me: string | undefined,
): boolean | null {
  if (filters.search) return null; // The search reads messages the event does not carry.
  const assignee = filters.assignee === "me" ? me : filters.assignee;
  if (assignee === undefined) return null; // Who "me" is, only the server knows here.
  const unassignedOnly = filters.unassigned || filters.agent === "unassigned";
  return (
    (!filters.status || conversation.status === filters.status) &&
    (!filters.priority || conversation.priority === filters.priority) &&
    (!filters.stage || conversation.stage === filters.stage) &&
    (!assignee || conversation.assignee_id === (assignee === "none" ? null : assignee)) &&
    (!filters.label || conversation.labels.some((l) => l.id === filters.label)) &&
    (unassignedOnly
      ? conversation.agent_id === null
      : !filters.agent || conversation.agent_id === filters.agent)
  );
}

export interface PatchedList {
  list: ConversationList;
  /** The page cannot be made right locally (a new row's total, another page): ask again. */
  stale: boolean;
}

/**
 * The list after `conversation` changed: replaced where it is; moved to the top of the first
 * page when it has a new message (the list is newest first); dropped when it no longer
 * matches the filters. What the event cannot settle marks the page stale.
 */
export function patchList(
  list: ConversationList,
  filters: InboxFilters,
  conversation: Conversation,
  {
    newMessage,
    me,
  }: { newMessage: boolean; /** The signed-in member ("Mis conversaciones"). */ me?: string },
): PatchedList {
  const rows = list.conversations;
  const index = rows.findIndex((c) => c.id === conversation.id);
  // The page already holds a later copy (read after this one was sent): nothing to do.
  const onPage = rows[index];
  if (onPage && olderConversation(conversation, onPage)) return { list, stale: false };
  const shown = shownWith(filters, conversation, me);
  if (shown === null) {
    if (index === -1) return { list, stale: newMessage };
    return { list: { ...list, conversations: rows.with(index, conversation) }, stale: newMessage };
  }
  if (!shown) {
    if (index === -1) return { list, stale: false };
    const remaining = rows.filter((c) => c.id !== conversation.id);
    return {
      list: { ...list, conversations: remaining, total: list.total - 1 },
      // A row from the next page would move up into the gap.
      stale: list.total > filters.page * list.limit,
    };
  }
  if (!newMessage) {
    // Off this page, it may now match a filter it did not (a handoff makes it "pending").
    if (index === -1) return { list, stale: hasFilters(filters) };
    return { list: { ...list, conversations: rows.with(index, conversation) }, stale: false };
  }
  if (filters.page !== 1) return { list, stale: true };
  const others = rows.filter((c) => c.id !== conversation.id);
  return {
    list: { ...list, conversations: [conversation, ...others].slice(0, list.limit) },
    // A conversation that was not on this page may be new (the total grows) or come from a
    // later page: only the server can say.
    stale: index === -1,
  };
}
