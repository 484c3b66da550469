/**
 * Which of the organization's knowledge entries go into an agent's prompt: the ones the
 * full-text index (`knowledge_fts`, bm25) finds most relevant to what the customer wrote,
 * cut to a size the prompt can afford (docs/decisions/0024).
 */
import { sql } from "drizzle-orm";
import type { Turn } from "../agents/replies";
import type { KnowledgeForPrompt } from "../../contracts/knowledge";
import { textOf } from "../ai/client";
import type { OrganizationDb } from "../db";

/** At most this many entries reach the prompt, however many match. */
export const KNOWLEDGE_PROMPT_ENTRIES = 5;
/** The knowledge section's size in characters (about 1,500 tokens), titles included. */
export const KNOWLEDGE_PROMPT_CHARS = 6_000;
/** Words searched for: the customer's latest words first. */
const MAX_SEARCH_TERMS = 24;
const MIN_TERM_LENGTH = 3;

/** Words that say nothing about what the customer wants (already folded: no accents). */
const STOP_WORDS = new Set(
  (
    "que los las del por para con una uno unos unas como mas pero sus les este esta estos estas " +
    "ese esa eso esos esas aqui alli hay hola buenas buenos dias tardes noches gracias porfa " +
    "favor quiero queria quisiera saber tienen tiene teneis tenes puedo puede pueden podria " +
    "hacer hace son soy estoy esta estan ser fue era muy tambien cual cuales cuando donde " +
    "quien todo toda todos todas nos vos usted ustedes ellos ellas algo alguna alguno sobre " +
    "entre hasta desde sin mis tus ya asi the and you"
  ).split(" "),
);

/** Lower-cased, accents folded: as the index's tokenizer (unicode61 remove_diacritics 2) sees words. */
const fold = (text: string) => text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");

/**
 * A word without its Spanish plural ending, searched as a prefix: "limpiezas" finds "limpieza"
 * and "limpiezas", "implantes" finds "implante". Short words stay whole (a three-letter prefix
 * would match too much).
 */
export function singular(word: string) {
  if (word.length > 5 && /[^aeiou]es$/.test(word)) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** The words worth searching for in the customer's messages (newest message first). */
export function searchTerms(texts: string[]): string[] {
  const terms = new Set<string>();
  for (const text of texts) {
    for (const word of fold(text).split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < MIN_TERM_LENGTH || STOP_WORDS.has(word)) continue;
      terms.add(singular(word));
      if (terms.size === MAX_SEARCH_TERMS) return [...terms];
    }
  }
  return [...terms];
}

/**
 * The FTS5 query: the organization's id as a phrase on its indexed column, so only its rows
 * are walked, AND any of the words, each as a prefix (plurals, `singular`). Every word is
 * quoted (its only characters are letters and digits), so nothing a customer writes is FTS
 * syntax.
 */
export const ftsQuery = (organizationId: string, terms: string[]) =>
  `organization_id : "${organizationId.replaceAll('"', "")}" AND (${terms.map((t) => `"${t}"*`).join(" OR ")})`;

/**
 * The entries most relevant to the customer's messages (newest first), best first, within the
 * prompt's budget. `allowedIds` limits them to the agent's entries (null: all). The phrase in
 * the MATCH keeps the search within the organization's rows.
 */
export async function relevantKnowledge(
  db: OrganizationDb,
  organizationId: string,
  customerTexts: string[],
  allowedIds: string[] | null,
): Promise<KnowledgeForPrompt[]> {
  const terms = searchTerms(customerTexts);
  if (terms.length === 0 || allowedIds?.length === 0) return [];
  const onlyAllowed = allowedIds
    ? sql`AND f.rowid IN (SELECT rowid FROM knowledge_entries
        WHERE organization_id = ${organizationId}
          AND id IN (SELECT value FROM json_each(${JSON.stringify(allowedIds)})))`
    : sql``;
  // The best few are ranked on the index alone; only they are read from the table (an
  // entry's text may be 100,000 characters: reading every match's before sorting cost most of
  // the time at 1,000 entries). bm25 weights: the organization column says nothing; a word in
  // the title counts 5 times. The join back filtered on `organization_id` is the guard.
  const rows = await db.all<KnowledgeForPrompt>(sql`
    WITH best AS (
      SELECT f.rowid AS rowid, bm25(knowledge_fts, 0.0, 5.0, 1.0) AS rank
      FROM knowledge_fts AS f
      WHERE knowledge_fts MATCH ${ftsQuery(organizationId, terms)} ${onlyAllowed}
      ORDER BY rank
      LIMIT ${KNOWLEDGE_PROMPT_ENTRIES}
    )
    SELECT k.id AS id, k.title AS title, k.content AS content
    FROM best CROSS JOIN knowledge_entries AS k ON k.rowid = best.rowid
    WHERE k.organization_id = ${organizationId}
    ORDER BY best.rank`);
  return withinBudget(rows, KNOWLEDGE_PROMPT_CHARS);
}

/**
 * Keeps entries in rank order while they fit; the first that does not fit is cut (an entry's
 * beginning is better than nothing), and the rest are left out.
 */
export function withinBudget(entries: KnowledgeForPrompt[], budget: number) {
  const kept: KnowledgeForPrompt[] = [];
  let left = budget;
  for (const entry of entries) {
    const room = left - entry.title.length;
    if (room <= 200) break; // Too little left for a useful excerpt.
    const content =
      entry.content.length <= room ? entry.content : `${entry.content.slice(0, room)}…`;
    kept.push({ ...entry, content });
    left -= entry.title.length + content.length;
  }
  return kept;
}

/** How many of the customer's latest messages the search reads. */
const SEARCHED_CUSTOMER_MESSAGES = 6;

/**
 * The knowledge for an agent's answer to this conversation (WhatsApp and the sandbox alike):
 * searched from the customer's latest messages, within the agent's entries.
 */
export function knowledgeForAgent(
  db: OrganizationDb,
  agent: { organizationId: string; knowledgeIds: string[] | null },
  history: Turn[],
) {
  const customerTexts = history
    .filter((turn) => turn.role === "user")
    .map((turn) => textOf(turn.content))
    .reverse()
    .slice(0, SEARCHED_CUSTOMER_MESSAGES);
  return relevantKnowledge(db, agent.organizationId, customerTexts, agent.knowledgeIds);
}
