/**
 * Store migration 21 (issue #49): what a history import's run reads of the pages waiting, kept
 * where it costs nothing to read. Each run chose its pages by `json_array_length(messages)`,
 * parsing up to 500 held pages' JSON (megabytes) to import 500 messages, and the stale-page check
 * read every page's `received_at` past its messages. A page's message count is now a column,
 * written when the page is held, and both reads are served by an index alone.
 *
 * SQLite adds a NOT NULL column only with a default: the rows already held get their count at
 * once, and every new page is held with its own.
 */
export const HISTORY_PAGE_COUNTS_SQL = `
ALTER TABLE history_pages ADD COLUMN message_count integer NOT NULL DEFAULT 0;
UPDATE history_pages SET message_count = json_array_length(messages);

DROP INDEX history_pages_order_idx;
CREATE INDEX history_pages_order_idx
	ON history_pages (organization_id, phase, chunk_order, id, message_count);
CREATE INDEX history_pages_received_idx ON history_pages (organization_id, received_at);
`;
