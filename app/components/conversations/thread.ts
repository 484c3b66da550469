/**
 * A thread's reads and merges, for `useMessageThread`: the newest page, and how a page read
 * from the server is laid over what is on screen. Marking read is the route's action.
 */
import { MESSAGE_PAGE_SIZE, type Message } from "../../../contracts/conversations";
import { client, data } from "~/lib/api";

const conversation = client.conversations[":id"];

/** The spec's delay before marking read after a realtime message. */
export const MARK_READ_DELAY_MS = 500;

/** The newest page of a conversation's messages, as the screens first load it. */
export const fetchNewestPage = (conversationId: string) =>
  data(
    conversation.messages.$get({
      param: { id: conversationId },
      query: { limit: String(MESSAGE_PAGE_SIZE) },
    }),
  );

/**
 * Whether the newest page fetched again after a reconnection shares no message with what
 * was shown: more was missed than a page holds, so the old list must give way to the page
 * (older messages come back with "Cargar mensajes anteriores") rather than leave a hole.
 */
export function missedMoreThanAPage(shown: Message[], page: Message[]) {
  const ids = new Set(shown.map((m) => m.id));
  return shown.length > 0 && !page.some((m) => ids.has(m.id));
}

const inTimeOrder = (a: Message, b: Message) =>
  a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * `current` with `page` merged in by id, oldest first, without the messages of `dropped`.
 * The page's copy wins, except over a copy an event brought after the page was asked for
 * (`liveSince`): the page may have been read before that change (a status, a transcript).
 * Nothing appears twice, and what arrived live while the page was fetched stays.
 */
export function mergeMessages(
  current: Message[],
  page: Message[],
  dropped: Message[] = [],
  liveSince: ReadonlyMap<string, Message> = new Map(),
) {
  const fresh = page.map((m) => liveSince.get(m.id) ?? m);
  const replaced = new Set([...fresh, ...dropped].map((m) => m.id));
  return [...current.filter((m) => !replaced.has(m.id)), ...fresh].sort(inTimeOrder);
}

/** The list with `message` replaced (same id) or added at the end. */
export const upsertMessage = (current: Message[], message: Message) =>
  current.some((m) => m.id === message.id)
    ? current.map((m) => (m.id === message.id ? message : m))
    : [...current, message];
