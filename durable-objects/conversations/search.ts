/**
 * The inbox's search and the two search indexes it reads (decision 0149): messages' text and
 * transcripts, conversations' name, phone and username, each an FTS5 trigram index. They are
 * written in batches by the store's `search` job rather than by a trigger at each stored row:
 * FTS5 writes a segment, its totals and its structure at every statement, so one message a
 * delivery cost six index rows, where a batch costs about two a row. `search_progress` keeps
 * the last rowid each index holds (store migration 20); search reads the rows above it
 * directly, so a message is found the moment it is stored.
 */
import { eq, like, or, sql, type SQL } from "drizzle-orm";
import { orgStatements, type OrganizationDb, type PlainStatement } from "../db";
import { conversations, messages } from "../schema";
import { jobKey } from "../../worker/stores/contract";

/**
 * Rows waiting for the indexes that make the `search` job due now (a delivery, or the alarm's
 * end, asks): a busy store indexes them in batches of about this many.
 */
const SEARCH_BACKLOG_ASK = 64;

/** How long fewer rows wait for the job: in a quiet store, a batch of what came meanwhile. */
const SEARCH_INDEX_WAIT_MS = 5 * 60_000;

/**
 * Rows each index takes a run, then the job is due again at once: a delivery waits for one run
 * at most (about 3 ms with SQLite 3.40 on this machine, more when FTS5 merges segments).
 */
export const INDEX_RUN_ROWS = 500;

type IndexedTable = "messages" | "conversations";

const INDEXED_COLUMNS: Record<IndexedTable, string> = {
  messages: "content, transcript",
  conversations: "contact_name, phone_number, username",
};

const indexedThrough = (table: IndexedTable) =>
  `(SELECT indexed_through FROM search_progress WHERE name = '${table}')`;

/** How many rows at most are above the indexes' marks (rowids freed by deletions count too). */
const BACKLOG = `coalesce((SELECT max(rowid) FROM messages), 0) - ${indexedThrough("messages")}
  + coalesce((SELECT max(rowid) FROM conversations), 0) - ${indexedThrough("conversations")}`;

/** The rows waiting, and when the `search` job is next due (a run's lease: when it ends). */
const SEARCH_STATE = `SELECT ${BACKLOG} AS behind,
  (SELECT due_at FROM scheduled_work WHERE key = ?1) AS due_at`;

interface SearchState extends Record<string, unknown> {
  behind: number;
  due_at: number | null;
}

const searchState = (db: OrganizationDb) =>
  orgStatements(db, [{ sql: SEARCH_STATE, params: [jobKey("search")] }])[0]![0] as SearchState;

/**
 * When the `search` job should be asked for, for the rows waiting: now when many are, else after
 * SEARCH_INDEX_WAIT_MS; null when none waits or the job is already due by then (one statement,
 * so that a delivery asks for nothing most of the time).
 */
export function searchIndexDue(db: OrganizationDb, now = Date.now()): number | null {
  const state = searchState(db);
  if (state.behind <= 0) return null;
  const due = state.behind >= SEARCH_BACKLOG_ASK ? now : now + SEARCH_INDEX_WAIT_MS;
  return state.due_at !== null && state.due_at <= due ? null : due;
}

/** One index's run: the next rows above its mark, then the mark moved past them. */
function indexRun(table: IndexedTable): PlainStatement[] {
  // The run's last rowid: the same in both statements, as the mark moves only in the second.
  const end = `(SELECT max(rowid) FROM (SELECT rowid FROM ${table}
    WHERE rowid > ${indexedThrough(table)} ORDER BY rowid LIMIT ${INDEX_RUN_ROWS}))`;
  return [
    {
      sql: `INSERT INTO ${table}_fts (rowid, ${INDEXED_COLUMNS[table]})
        SELECT rowid, ${INDEXED_COLUMNS[table]} FROM ${table}
        WHERE rowid > ${indexedThrough(table)} AND rowid <= ${end}`,
      params: [],
    },
    {
      sql: `UPDATE search_progress SET indexed_through = ${end}
        WHERE name = '${table}' AND ${end} IS NOT NULL`,
      params: [],
    },
  ];
}

const INDEX_RUN = [...indexRun("messages"), ...indexRun("conversations")];

/**
 * The `search` job's run: the rows waiting, up to INDEX_RUN_ROWS of each table, written to
 * their index in one transaction. Answers whether rows are still waiting.
 */
export function indexSearchBacklog(db: OrganizationDb): boolean {
  orgStatements(db, INDEX_RUN);
  return searchState(db).behind > 0;
}

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

const contains = (text: string) => `%${escapeLike(text)}%`;

/** Capitals beyond ASCII in Spanish and Portuguese names: SQLite's lower() folds only ASCII. */
const ACCENTED_CAPITALS = [..."ÁÉÍÓÚÜÑÀÈÌÒÙÂÊÎÔÛÃÕÇÄËÏÖ"];

/**
 * A column in lower case, as the trigram index compares it (case folded, accents kept), for the
 * rows it does not hold yet; compared with the term in lower case.
 */
const folded = (column: string) =>
  sql.raw(
    ACCENTED_CAPITALS.reduce(
      (expression, capital) => `replace(${expression}, '${capital}', '${capital.toLowerCase()}')`,
      `lower(${column})`,
    ),
  );

/** An FTS5 phrase: the trigram tokenizer matches it as a substring, case-insensitively. */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** The trigram index needs three characters; shorter terms keep the LIKE scan. */
const indexable = (text: string) => [...text].length >= 3;

/**
 * Conversations whose contact name, phone or WhatsApp username (with or without its `@`),
 * or any of whose messages, contains the term.
 * With three characters or more it reads the trigram indexes and starts from their hits, so its
 * cost follows the matches, not the size of the inbox, plus the few rows not indexed yet, read
 * with LIKE on their text folded as the index folds it. The organization is checked on every
 * hit (`+` keeps SQLite from scanning the whole organization's index instead). Shorter terms
 * scan with LIKE.
 */
export function searchFilter(organizationId: string, search: string): SQL[] {
  const phone = search.replace(/[\s+()-]/g, "");
  const handle = search.replace(/^@/, "");
  if (indexable(search) && indexable(handle) && (phone === "" || indexable(phone))) {
    const names = [
      `contact_name : ${phrase(search)}`,
      `username : ${phrase(handle)}`,
      ...(phone ? [`phone_number : ${phrase(phone)}`] : []),
    ].join(" OR ");
    const lower = (text: string) => contains(text.toLowerCase());
    const unindexedName = [
      sql`${folded("c2.contact_name")} LIKE ${lower(search)} ESCAPE '\\'`,
      sql`${folded("c2.username")} LIKE ${lower(handle)} ESCAPE '\\'`,
      ...(phone ? [sql`c2.phone_number LIKE ${contains(phone)} ESCAPE '\\'`] : []),
    ];
    const text = lower(search);
    return [
      sql`+${conversations.organizationId} = ${organizationId}`,
      sql`${conversations}.rowid IN (
        SELECT rowid FROM conversations_fts WHERE conversations_fts MATCH ${names}
        UNION
        SELECT c2.rowid FROM ${conversations} c2
        WHERE c2.rowid > ${sql.raw(indexedThrough("conversations"))}
          AND (${sql.join(unindexedName, sql` OR `)})
        UNION
        SELECT c2.rowid FROM ${conversations} c2 WHERE c2.id IN (
          SELECT ${messages.conversationId} FROM ${messages}
          WHERE ${messages}.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${phrase(search)})
            AND +${messages.organizationId} = ${organizationId}
          UNION ALL
          SELECT m.conversation_id FROM ${messages} m
          WHERE m.rowid > ${sql.raw(indexedThrough("messages"))}
            AND (${folded("m.content")} LIKE ${text} ESCAPE '\\'
              OR ${folded("m.transcript")} LIKE ${text} ESCAPE '\\')
            AND +m.organization_id = ${organizationId}))`,
    ];
  }
  const pattern = contains(search);
  return [
    eq(conversations.organizationId, organizationId),
    or(
      sql`${conversations.contactName} LIKE ${pattern} ESCAPE '\\'`,
      like(conversations.phoneNumber, contains(phone)),
      sql`${conversations.username} LIKE ${contains(handle)} ESCAPE '\\'`,
      sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.conversationId} = ${conversations.id} AND (${messages.content} LIKE ${pattern} ESCAPE '\\' OR ${messages.transcript} LIKE ${pattern} ESCAPE '\\'))`,
    )!,
  ];
}
