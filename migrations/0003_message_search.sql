-- Search, stats and retention at scale (issue 10, docs/performance.md).
-- Indexes of worker/db/schema.ts: unread conversations for stats, and the foreign keys that
-- retention's deletes follow (ON DELETE SET NULL scanned the referencing tables without them).
CREATE INDEX `conversations_unread_idx` ON `conversations` (`organization_id`) WHERE unread_count > 0;--> statement-breakpoint
CREATE INDEX `conversations_session_idx` ON `conversations` (`tracking_session_id`);--> statement-breakpoint
CREATE INDEX `conversions_conversation_idx` ON `conversions` (`conversation_id`);--> statement-breakpoint
CREATE INDEX `conversions_session_idx` ON `conversions` (`tracking_session_id`);--> statement-breakpoint
-- Below the indexes drizzle-kit generated: written by hand, as drizzle-kit does not model
-- FTS5 tables or triggers (issue 10, docs/performance.md).
--
-- Full-text indexes for the inbox search: the trigram tokenizer indexes every three-character
-- sequence, so a phrase query finds any substring (what LIKE '%term%' did, case-insensitively)
-- without scanning every message. External content: the text lives once, in its table; the
-- triggers keep the index in step with every insert, update and delete (retention included).
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`content`, content='messages', content_rowid='rowid', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `messages_fts`(`messages_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts`(rowid, `content`) VALUES (new.rowid, new.`content`);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, `content`) VALUES ('delete', old.rowid, old.`content`);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `content` ON `messages` WHEN old.`content` IS NOT new.`content` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, `content`) VALUES ('delete', old.rowid, old.`content`);
  INSERT INTO `messages_fts`(rowid, `content`) VALUES (new.rowid, new.`content`);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `conversations_fts` USING fts5(`contact_name`, `phone_number`, content='conversations', content_rowid='rowid', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `conversations_fts`(`conversations_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `conversations_fts_insert` AFTER INSERT ON `conversations` BEGIN
  INSERT INTO `conversations_fts`(rowid, `contact_name`, `phone_number`) VALUES (new.rowid, new.`contact_name`, new.`phone_number`);
END;
--> statement-breakpoint
CREATE TRIGGER `conversations_fts_delete` AFTER DELETE ON `conversations` BEGIN
  INSERT INTO `conversations_fts`(`conversations_fts`, rowid, `contact_name`, `phone_number`) VALUES ('delete', old.rowid, old.`contact_name`, old.`phone_number`);
END;
--> statement-breakpoint
CREATE TRIGGER `conversations_fts_update` AFTER UPDATE OF `contact_name`, `phone_number` ON `conversations` WHEN old.`contact_name` IS NOT new.`contact_name` OR old.`phone_number` IS NOT new.`phone_number` BEGIN
  INSERT INTO `conversations_fts`(`conversations_fts`, rowid, `contact_name`, `phone_number`) VALUES ('delete', old.rowid, old.`contact_name`, old.`phone_number`);
  INSERT INTO `conversations_fts`(rowid, `contact_name`, `phone_number`) VALUES (new.rowid, new.`contact_name`, new.`phone_number`);
END;
--> statement-breakpoint
