/**
 * Store migration 20 (issue #49, decision 0149): the search indexes of messages and
 * conversations are written in batches by the store's `search` job, not row by row as each row
 * is stored. FTS5 writes a segment, its totals and its structure at every statement, so a
 * delivery's one message cost six index rows; a hundred messages indexed together cost about two
 * each. `search_progress` keeps, per table, the last rowid its index holds: every row above it
 * is still to be indexed (and search reads those rows directly, durable-objects/conversations/search.ts).
 *
 * The insert triggers go. A delete or an edit changes the index only for a row it holds. A
 * delete that takes the table's highest rowid lowers the mark to the highest left, so that
 * SQLite, which gives a new row the highest rowid plus one, never gives a new row a rowid the
 * mark already counts as indexed.
 */
export const SEARCH_PROGRESS_SQL = `
CREATE TABLE search_progress (
	name text PRIMARY KEY NOT NULL,
	indexed_through integer NOT NULL
);

INSERT INTO search_progress (name, indexed_through) VALUES
	('messages', coalesce((SELECT max(rowid) FROM messages), 0)),
	('conversations', coalesce((SELECT max(rowid) FROM conversations), 0));

DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;

CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, transcript)
  SELECT 'delete', old.rowid, old.content, old.transcript
  WHERE old.rowid <= (SELECT indexed_through FROM search_progress WHERE name = 'messages');
  UPDATE search_progress SET indexed_through = coalesce((SELECT max(rowid) FROM messages), 0)
  WHERE name = 'messages' AND indexed_through > coalesce((SELECT max(rowid) FROM messages), 0);
END;

CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, transcript ON messages
WHEN (old.content IS NOT new.content OR old.transcript IS NOT new.transcript)
  AND old.rowid <= (SELECT indexed_through FROM search_progress WHERE name = 'messages') BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, transcript) VALUES ('delete', old.rowid, old.content, old.transcript);
  INSERT INTO messages_fts(rowid, content, transcript) VALUES (new.rowid, new.content, new.transcript);
END;

DROP TRIGGER conversations_fts_insert;
DROP TRIGGER conversations_fts_delete;
DROP TRIGGER conversations_fts_update;

CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN
  INSERT INTO conversations_fts(conversations_fts, rowid, contact_name, phone_number, username)
  SELECT 'delete', old.rowid, old.contact_name, old.phone_number, old.username
  WHERE old.rowid <= (SELECT indexed_through FROM search_progress WHERE name = 'conversations');
  UPDATE search_progress SET indexed_through = coalesce((SELECT max(rowid) FROM conversations), 0)
  WHERE name = 'conversations'
    AND indexed_through > coalesce((SELECT max(rowid) FROM conversations), 0);
END;

CREATE TRIGGER conversations_fts_update AFTER UPDATE OF contact_name, phone_number, username ON conversations
WHEN (old.contact_name IS NOT new.contact_name OR old.phone_number IS NOT new.phone_number
    OR old.username IS NOT new.username)
  AND old.rowid <= (SELECT indexed_through FROM search_progress WHERE name = 'conversations') BEGIN
  INSERT INTO conversations_fts(conversations_fts, rowid, contact_name, phone_number, username) VALUES ('delete', old.rowid, old.contact_name, old.phone_number, old.username);
  INSERT INTO conversations_fts(rowid, contact_name, phone_number, username) VALUES (new.rowid, new.contact_name, new.phone_number, new.username);
END;
`;
