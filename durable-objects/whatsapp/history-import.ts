/**
 * The WhatsApp Business app's chat history (contract section 16, docs/decisions/0056): held at
 * once when Meta delivers it (inside the delivery's transaction: Meta is answered as soon as
 * it is held), imported by the organization's store in the background (the `history` store
 * job), a bounded amount per run so that live deliveries never wait behind a big import.
 * Imported messages count for nothing: no reply, notification, unread, service window, stage,
 * conversion or tracked visit; they only fill the threads, in Meta's time order.
 */
import { eq } from "drizzle-orm";
import type { MessageStatus } from "../../contracts/conversations";
import { preview } from "../conversations/mappers";
import { fromRows } from "../../worker/db/client";
import { orgStatements, type OrganizationDb } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import { historyImports, historyPages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { metaErrorText } from "../meta/errors";
import type { HistoryImport } from "../../contracts/whatsapp";
import { STORE_FULL_TEXT, storeFull } from "../store-room";
import { conversationsOfCustomers, validBsuid, validWaId } from "./customer-identity";
import { isoFromSeconds, readableContent, type InboundMessage } from "./inbound-content";
import type { EchoPayload, HistoryPayload } from "../../worker/whatsapp/webhook-payloads";

/** Meta's error on `history` when the owner chose not to share the app's chats. */
export const HISTORY_DECLINED_CODE = 2593109;

export const HISTORY_DECLINED_TEXT =
  "El propietario del número eligió no compartir el historial de chats de la app WhatsApp Business.";

/** What a history message whose file Meta did not send reads as. */
export const IMPORTED_MEDIA_TEXT = "Archivo no disponible (importado)";

/**
 * Messages one run of the job imports before it gives the store back: a run is a few
 * transactions of at most PAGE_MESSAGES each, and a live delivery waits at most one run (about
 * 5 ms of the store's CPU; decision 0152 measured 500 and 200 against it).
 */
export const IMPORT_RUN_MESSAGES = 100;

/**
 * A page holds at most this many messages (no more than a run, so a long thread never makes a
 * run longer) and this much JSON (a row holds at most 2 MB).
 */
const PAGE_MESSAGES = IMPORT_RUN_MESSAGES;
const PAGE_BYTES = 1_000_000;
/** JSON bound to one statement that holds pages (D1 takes a string of at most 2 MB). */
const STATEMENT_BYTES = 1_000_000;

/** Pages not imported this long after they arrived are dropped (and logged): decision 0056. */
export const STALE_PAGE_MS = 7 * 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** A message as Meta puts it in a history thread. */
type HistoryMessage = EchoPayload & { history_context?: { status?: string } };

/** One page held: a thread's messages (or part of them) from one chunk. */
interface HeldPage {
  id: string;
  phase: number;
  chunkOrder: number;
  progress: number;
  threadId: string;
  messages: HistoryMessage[];
}

const wholeNumber = (value: unknown, max: number) =>
  typeof value === "number" && Number.isFinite(value)
    ? Math.min(max, Math.max(0, Math.trunc(value)))
    : 0;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A history message the import can read: an object with Meta's id and type. */
const isHistoryMessage = (value: unknown): value is HistoryMessage =>
  isObject(value) && typeof value.id === "string" && typeof value.type === "string";

/** A thread's messages in pages within PAGE_MESSAGES and PAGE_BYTES. */
function pagesOf(messages: HistoryMessage[]): HistoryMessage[][] {
  const pages: HistoryMessage[][] = [];
  let page: HistoryMessage[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = JSON.stringify(message).length;
    if (page.length > 0 && (page.length >= PAGE_MESSAGES || bytes + size > PAGE_BYTES)) {
      pages.push(page);
      page = [];
      bytes = 0;
    }
    page.push(message);
    bytes += size;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/** The pages of one chunk: each thread's messages, split. */
function pagesOfChunk(chunk: HistoryPayload): HeldPage[] {
  const phase = wholeNumber(chunk.metadata?.phase, 2);
  const chunkOrder = wholeNumber(chunk.metadata?.chunk_order, Number.MAX_SAFE_INTEGER);
  const progress = wholeNumber(chunk.metadata?.progress, 100);
  const threads = Array.isArray(chunk.threads) ? chunk.threads : [];
  return threads.flatMap((thread) => {
    const threadId = typeof thread?.id === "string" ? thread.id.slice(0, 200) : "";
    const messages = Array.isArray(thread?.messages)
      ? thread.messages.filter(isHistoryMessage)
      : [];
    if (!threadId || messages.length === 0) return [];
    return pagesOf(messages).map((page) => ({
      id: uuidv7(),
      phase,
      chunkOrder,
      progress,
      threadId,
      messages: page,
    }));
  });
}

/** Meta's refusal of the history, in Spanish: declined by the owner, or failed with why. */
function refusalOf(errors: NonNullable<HistoryPayload["errors"]>) {
  const error = errors.find(isObject) ?? {};
  if (error.code === HISTORY_DECLINED_CODE) {
    return { state: "declined" as const, error: HISTORY_DECLINED_TEXT };
  }
  const said = [error.message, error.title].find((text) => typeof text === "string");
  const reason = metaErrorText(
    typeof error.code === "number" ? error.code : null,
    said ?? "desconocido",
  );
  return {
    state: "failed" as const,
    error: `Meta no pudo enviar el historial de chats de la app: ${reason}`,
  };
}

/** Pages bound as JSON (`?5`), one row each; `?1` organization, `?2`-`?4` chunk, `?6` now. */
const HOLD_PAGES = `
  INSERT INTO history_pages (id, organization_id, phase, chunk_order, progress, thread_id,
    messages, received_at, message_count)
  SELECT p.value ->> 'id', ?1, ?2, ?3, ?4, p.value ->> 'threadId', p.value -> 'messages', ?6,
    p.value ->> 'count'
  FROM json_each(?5) AS p`;

/**
 * The import moves on with a chunk: `importing`, Meta's highest progress, no error; `done` at
 * once when Meta says it has sent everything and no page is left (a last chunk with no
 * messages). `?1` a new id, `?2` organization, `?3` progress, `?4` now.
 */
const IMPORT_MOVES_ON = `
  INSERT INTO history_imports (id, organization_id, state, progress, messages, error,
    created_at, updated_at)
  VALUES (?1, ?2, 'importing', ?3, 0, NULL, ?4, ?4)
  ON CONFLICT (organization_id) DO UPDATE SET
    progress = max(history_imports.progress, excluded.progress),
    state = CASE WHEN max(history_imports.progress, excluded.progress) >= 100
      AND NOT EXISTS (SELECT 1 FROM history_pages WHERE organization_id = ?2)
      THEN 'done' ELSE 'importing' END,
    error = NULL,
    updated_at = ?4
  RETURNING *`;

/** Meta refused the history (`?3` state, `?4` Spanish reason). `?1` id, `?2` organization, `?5` now. */
const IMPORT_REFUSED = `
  INSERT INTO history_imports (id, organization_id, state, progress, messages, error,
    created_at, updated_at)
  VALUES (?1, ?2, ?3, 0, 0, ?4, ?5, ?5)
  ON CONFLICT (organization_id) DO UPDATE SET
    state = excluded.state, error = excluded.error, updated_at = ?5
  RETURNING *`;

type HistoryImportRow = typeof historyImports.$inferSelect;

const toHistoryImport = (row: Pick<HistoryImportRow, keyof HistoryImport>): HistoryImport => ({
  state: row.state,
  progress: row.progress,
  messages: row.messages,
  error: row.error,
});

/** A row of history_imports as plain SQL answers it (snake_case). */
const fromPlainRow = (row: Record<string, unknown>) =>
  toHistoryImport(fromRows(historyImports, [row])[0]!);

const progressEvent = (historyImport: HistoryImport) => ({
  type: "import_progress" as const,
  data: { history_import: historyImport },
});

/**
 * Holds a delivery's `history` entries: Meta's refusal sets the import's state; each chunk's
 * threads become pages for the store's job. Runs inside the delivery's transaction, so it only
 * writes: a few statements whatever the chunk's size. Answers whether pages were held.
 */
export async function holdHistory(
  deps: StoreDeps,
  organizationId: string,
  history: HistoryPayload[],
): Promise<boolean> {
  const now = new Date().toISOString();
  let held = false;
  for (const entry of history.filter(isObject)) {
    const statements =
      Array.isArray(entry.errors) && entry.errors.length > 0
        ? refusedStatements(organizationId, entry.errors, now)
        : chunkStatements(organizationId, entry, now);
    if (statements.pages > 0) held = true;
    const results = await orgStatements(deps.orgDb, statements.list);
    const row = results.at(-1)?.[0];
    if (row) await deps.publish(progressEvent(fromPlainRow(row)));
  }
  return held;
}

function refusedStatements(
  organizationId: string,
  errors: NonNullable<HistoryPayload["errors"]>,
  now: string,
) {
  const { state, error } = refusalOf(errors);
  console.warn("history refused by Meta", organizationId, state, JSON.stringify(errors));
  return {
    pages: 0,
    list: [{ sql: IMPORT_REFUSED, params: [uuidv7(), organizationId, state, error, now] }],
  };
}

/** The statements that hold a chunk: its pages, in statements of at most STATEMENT_BYTES. */
function chunkStatements(organizationId: string, chunk: HistoryPayload, now: string) {
  const pages = pagesOfChunk(chunk);
  const list: { sql: string; params: unknown[] }[] = [];
  let batch: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (batch.length === 0) return;
    const { phase, chunkOrder, progress } = pages[0]!;
    list.push({
      sql: HOLD_PAGES,
      params: [organizationId, phase, chunkOrder, progress, `[${batch.join(",")}]`, now],
    });
    batch = [];
    bytes = 0;
  };
  for (const page of pages) {
    const json = JSON.stringify({
      id: page.id,
      threadId: page.threadId,
      count: page.messages.length,
      messages: page.messages,
    });
    if (bytes + json.length > STATEMENT_BYTES) flush();
    batch.push(json);
    bytes += json.length;
  }
  flush();
  const progress = wholeNumber(chunk.metadata?.progress, 100);
  list.push({ sql: IMPORT_MOVES_ON, params: [uuidv7(), organizationId, progress, now] });
  return { pages: pages.length, list };
}

/** Where the organization's history import stands, or null when none was ever asked for. */
export async function historyImportOf(
  orgDb: OrganizationDb,
  organizationId: string,
): Promise<HistoryImport | null> {
  const row = await orgDb.query.historyImports.findFirst({
    where: eq(historyImports.organizationId, organizationId),
  });
  return row ? toHistoryImport(row) : null;
}

/**
 * What onboarding a number from the app asked of Meta (durable-objects/whatsapp/oauth-service.ts): the
 * history was requested (`requested`, or `failed` with Meta's refusal in Spanish), and a failed
 * address-book request is said too. An import already under way or finished keeps its state:
 * only its error says what the new request met.
 */
export async function recordHistoryRequest(
  deps: StoreDeps,
  organizationId: string,
  request: { requested: boolean; error: string | null },
): Promise<HistoryImport> {
  const now = new Date().toISOString();
  const state = request.requested ? "requested" : "failed";
  const [rows] = await orgStatements(deps.orgDb, [
    {
      sql: `INSERT INTO history_imports (id, organization_id, state, progress, messages, error,
          created_at, updated_at)
        VALUES (?1, ?2, ?3, 0, 0, ?4, ?5, ?5)
        ON CONFLICT (organization_id) DO UPDATE SET
          state = CASE WHEN history_imports.state IN ('requested', 'failed')
            THEN excluded.state ELSE history_imports.state END,
          error = excluded.error, updated_at = ?5
        RETURNING *`,
      params: [uuidv7(), organizationId, state, request.error, now],
    },
  ]);
  const historyImport = fromPlainRow(rows![0]!);
  await deps.publish(progressEvent(historyImport));
  return historyImport;
}

// ── The import (the store's `history` job) ────────────────────────────────

/** Meta's `history_context.status`, as the product's message status. */
const HISTORY_STATUSES: Record<string, MessageStatus> = {
  PENDING: "pending",
  SENT: "sent",
  DELIVERED: "delivered",
  READ: "read",
  PLAYED: "read",
  ERROR: "failed",
};

/** A message as the import writes it (bound as JSON, read with json_each). */
interface ImportedMessage {
  id: string;
  wamid: string;
  type: string;
  content: string;
  preview: string;
  direction: "inbound" | "outbound";
  senderType: "customer" | "phone";
  status: MessageStatus;
  mediaId: string | null;
  mediaMimeType: string | null;
  sentAt: string;
}

/** A thread's customer: its id is their phone (a BSUID where Meta names them so). */
function customerOf(page: HeldPage) {
  const phone = validWaId(page.threadId);
  const userId =
    validBsuid(page.threadId) ??
    page.messages
      .map((m) => validBsuid(m.from_user_id) ?? validBsuid(m.to_user_id))
      .find(Boolean) ??
    null;
  return phone || userId ? { phone, userId } : null;
}

/**
 * A page's messages as the thread shows them: the customer's inbound, the business's (sent
 * from the phone) outbound; reactions, edits and revokes are not messages of their own and are
 * left out. Meta's time is both when it was sent and its place in the thread.
 */
function importedMessages(
  page: HeldPage & { receivedAt: string },
  customer: { phone: string | null; userId: string | null },
): ImportedMessage[] {
  return page.messages.flatMap((message) => {
    if (message.type === "reaction" || message.type === "edit" || message.type === "revoke") {
      return [];
    }
    const fromCustomer =
      (customer.phone !== null && message.from === customer.phone) ||
      (customer.userId !== null && message.from_user_id === customer.userId);
    const readable =
      message.type === "media_placeholder"
        ? { content: IMPORTED_MEDIA_TEXT, mediaId: null, mediaMimeType: null }
        : readableContent(message as InboundMessage);
    const status = HISTORY_STATUSES[String(message.history_context?.status).toUpperCase()];
    return [
      {
        id: uuidv7(),
        wamid: message.id.slice(0, 300),
        type: message.type.slice(0, 40),
        content: readable.content,
        preview: preview(readable.content),
        direction: fromCustomer ? "inbound" : "outbound",
        senderType: fromCustomer ? "customer" : "phone",
        status: status ?? (fromCustomer ? "delivered" : "sent"),
        mediaId: readable.mediaId,
        mediaMimeType: readable.mediaMimeType,
        sentAt: isoFromSeconds(message.timestamp, page.receivedAt),
      },
    ];
  });
}

/**
 * Each message once by wamid (a repeated chunk, or a message a live delivery stored first, adds
 * nothing), `imported`, at Meta's time. `?1` organization, `?2` conversation, `?3` messages.
 */
const INSERT_IMPORTED = `
  INSERT INTO messages (id, organization_id, conversation_id, wamid, type, content, direction,
    sender_type, status, media_id, media_mime_type, sent_at, created_at, imported)
  SELECT m.value ->> 'id', ?1, ?2, m.value ->> 'wamid', m.value ->> 'type',
    m.value ->> 'content', m.value ->> 'direction', m.value ->> 'senderType',
    m.value ->> 'status', m.value ->> 'mediaId', m.value ->> 'mediaMimeType',
    m.value ->> 'sentAt', m.value ->> 'sentAt', 1
  FROM json_each(?3) AS m WHERE true
  ON CONFLICT (organization_id, wamid) DO NOTHING
  RETURNING id`;

/**
 * The conversation's last message and preview move only to an imported message newer than what
 * it shows (or when it shows none yet); nothing else of it changes: no unread, no window.
 * `?1` messages, `?2` conversation, `?3` now.
 */
const MOVE_PREVIEW = `
  WITH latest AS (
    SELECT stored.sent_at, m.value ->> 'preview' AS preview
    FROM json_each(?1) AS m CROSS JOIN messages AS stored ON stored.id = m.value ->> 'id'
    ORDER BY stored.sent_at DESC, m.key DESC LIMIT 1
  )
  UPDATE conversations SET last_message_preview = latest.preview,
    last_message_at = max(last_message_at, latest.sent_at), updated_at = ?3
  FROM latest
  WHERE conversations.id = ?2
    AND (last_message_preview IS NULL OR last_message_at < latest.sent_at)`;

/** The page's new messages counted on the import. `?1` messages, `?2` organization, `?3` now. */
const COUNT_IMPORTED = `
  UPDATE history_imports SET updated_at = ?3, messages = messages + (
    SELECT count(*) FROM json_each(?1) AS m CROSS JOIN messages AS stored
      ON stored.id = m.value ->> 'id')
  WHERE organization_id = ?2`;

const DELETE_PAGE = `DELETE FROM history_pages WHERE id = ?1 AND organization_id = ?2`;

/**
 * The store has no room (contract section 15): the import says so and waits, its pages held,
 * `?1` organization, `?2` the reason, `?3` now.
 */
const STOP_FOR_ROOM = `
  UPDATE history_imports SET state = 'failed', error = ?2, updated_at = ?3
  WHERE organization_id = ?1 AND state IN ('requested', 'importing')`;

/** Room again: an import stopped for it goes on. `?1` organization, `?2` the reason it stopped. */
const RESUME_AFTER_ROOM = `
  UPDATE history_imports SET state = 'importing', error = NULL
  WHERE organization_id = ?1 AND state = 'failed' AND error = ?2`;

/** Done once Meta has sent everything (progress 100) and no page is left. */
const FINISH_IMPORT = `
  UPDATE history_imports SET state = 'done', updated_at = ?2
  WHERE organization_id = ?1 AND state = 'importing' AND progress >= 100
    AND NOT EXISTS (SELECT 1 FROM history_pages WHERE organization_id = ?1)`;

/**
 * The next pages' ids and sizes, in import order (phase, chunk, then arrival: ids are
 * time-ordered), from `history_pages_order_idx` alone. `?1` organization, `?2` how many.
 */
export const RUN_PAGE_SIZES = `SELECT id, message_count AS size FROM history_pages
  WHERE organization_id = ?1 ORDER BY phase, chunk_order, id LIMIT ?2`;

/**
 * The pages of one run, in order: as many as fit IMPORT_RUN_MESSAGES, at least one. Their sizes
 * are read first, then only those pages.
 */
async function pagesOfRun(orgDb: OrganizationDb, organizationId: string) {
  // Every page holds a message at least: no more than IMPORT_RUN_MESSAGES pages fit a run.
  const [sizes] = await orgStatements(orgDb, [
    { sql: RUN_PAGE_SIZES, params: [organizationId, IMPORT_RUN_MESSAGES] },
  ]);
  const chosen: string[] = [];
  let messages = 0;
  for (const { id, size } of sizes!) {
    if (chosen.length > 0 && messages + Number(size) > IMPORT_RUN_MESSAGES) break;
    chosen.push(String(id));
    messages += Number(size);
  }
  if (chosen.length === 0) return [];
  const [rows] = await orgStatements(orgDb, [
    {
      sql: `SELECT * FROM history_pages WHERE organization_id = ?1
          AND id IN (SELECT value FROM json_each(?2))
        ORDER BY phase, chunk_order, id`,
      params: [organizationId, JSON.stringify(chosen)],
    },
  ]);
  return fromRows(historyPages, rows!);
}

const anyPageLeft = async (orgDb: OrganizationDb, organizationId: string) =>
  Boolean(
    await orgDb.query.historyPages.findFirst({
      where: eq(historyPages.organizationId, organizationId),
      columns: { id: true },
    }),
  );

/**
 * One run of the import: drops pages too old to import (logged), imports up to
 * IMPORT_RUN_MESSAGES messages, one page per transaction, and tells the consoles where it stands
 * (one event a run). Answers when to run again: at once while pages are left, in a day while
 * the store has no room, else never.
 */
export async function importHistory(
  deps: StoreDeps,
  organizationId: string,
  at: Date,
): Promise<number | null> {
  const { orgDb } = deps;
  const dropped = await dropStalePages(orgDb, organizationId, at);
  if (storeFull(deps)) return waitForRoom(deps, organizationId);
  const pages = await pagesOfRun(orgDb, organizationId);
  if (pages.length === 0) return finishIfComplete(deps, organizationId, dropped > 0);
  await orgStatements(orgDb, [
    { sql: RESUME_AFTER_ROOM, params: [organizationId, STORE_FULL_TEXT] },
  ]);

  const defaultAgentId = (await deps.facts()).connection?.defaultAgentId ?? null;
  const held = pages.map((page) => ({ ...page, messages: page.messages.filter(isHistoryMessage) }));
  const customers = held.map(customerOf);
  const conversations = await conversationsOfCustomers(
    orgDb,
    organizationId,
    defaultAgentId,
    held.map((page, i) => ({
      userId: customers[i]?.userId ?? null,
      phone: customers[i]?.phone ?? null,
      sentAt: newestTime(page),
    })),
  );
  for (const [i, page] of held.entries()) {
    const conversation = conversations[i];
    const customer = customers[i];
    if (!conversation || !customer) {
      // Nobody to show it for (no phone, no BSUID): logged, and not tried again.
      console.warn("history page names no customer", organizationId, page.threadId);
      await orgStatements(orgDb, [{ sql: DELETE_PAGE, params: [page.id, organizationId] }]);
      continue;
    }
    const messages = importedMessages(page, customer);
    await importPage(
      orgDb,
      organizationId,
      { pageId: page.id, conversationId: conversation.id },
      messages,
    );
  }
  if (await anyPageLeft(orgDb, organizationId)) {
    await publishProgress(deps, organizationId);
    return Date.now();
  }
  return finishIfComplete(deps, organizationId, true);
}

/** The newest message of a page: a conversation it creates starts there. */
function newestTime(page: HeldPage & { receivedAt: string }) {
  const times = page.messages.map((m) => isoFromSeconds(m.timestamp, page.receivedAt));
  return times.reduce(
    (newest, time) => (time > newest ? time : newest),
    times[0] ?? page.receivedAt,
  );
}

/**
 * One page in one transaction: its new messages, the conversation's preview, the import's
 * count, and the page gone, so a page is imported once whatever fails after.
 */
async function importPage(
  orgDb: OrganizationDb,
  organizationId: string,
  { pageId, conversationId }: { pageId: string; conversationId: string },
  messages: ImportedMessage[],
) {
  const rows = JSON.stringify(messages);
  const now = new Date().toISOString();
  await orgStatements(orgDb, [
    { sql: INSERT_IMPORTED, params: [organizationId, conversationId, rows] },
    { sql: MOVE_PREVIEW, params: [rows, conversationId, now] },
    { sql: COUNT_IMPORTED, params: [rows, organizationId, now] },
    { sql: DELETE_PAGE, params: [pageId, organizationId] },
  ]);
}

/**
 * The pages held since before `?2` (ISO), found by `history_pages_received_idx`: every run asks,
 * and almost always none is. `?1` organization.
 */
export const DROP_STALE_PAGES = `DELETE FROM history_pages
  WHERE organization_id = ?1 AND received_at < ?2
  RETURNING thread_id, message_count AS messages`;

/**
 * Drops the pages that arrived more than STALE_PAGE_MS before `at`: a page the import kept
 * failing on, or held for an organization whose job was lost. Logged with how many messages
 * they held (decision 0056). Answers how many pages went.
 */
async function dropStalePages(orgDb: OrganizationDb, organizationId: string, at: Date) {
  const before = new Date(at.getTime() - STALE_PAGE_MS).toISOString();
  const [dropped] = await orgStatements(orgDb, [
    { sql: DROP_STALE_PAGES, params: [organizationId, before] },
  ]);
  if (dropped!.length > 0) {
    const messages = dropped!.reduce((sum, row) => sum + Number(row.messages), 0);
    console.error("history pages dropped unimported", organizationId, {
      pages: dropped!.length,
      messages,
    });
  }
  return dropped!.length;
}

/** The import as it stands, to the consoles: one event a run. */
/** No room in the store: said on the import, and looked at again in a day (retention frees room). */
async function waitForRoom(deps: StoreDeps, organizationId: string) {
  const now = new Date().toISOString();
  await orgStatements(deps.orgDb, [
    { sql: STOP_FOR_ROOM, params: [organizationId, STORE_FULL_TEXT, now] },
  ]);
  await publishProgress(deps, organizationId);
  return Date.now() + DAY_MS;
}

async function publishProgress(deps: StoreDeps, organizationId: string) {
  const historyImport = await historyImportOf(deps.orgDb, organizationId);
  if (historyImport) await deps.publish(progressEvent(historyImport));
}

/**
 * No page is left: the import is done once Meta has said it sent everything (otherwise later
 * chunks schedule the job again). Publishes when this run changed something.
 */
async function finishIfComplete(deps: StoreDeps, organizationId: string, ranPages: boolean) {
  const [finished] = await orgStatements(deps.orgDb, [
    {
      sql: `${FINISH_IMPORT} RETURNING id`,
      params: [organizationId, new Date().toISOString()],
    },
  ]);
  if (ranPages || finished!.length > 0) await publishProgress(deps, organizationId);
  return null;
}
