CREATE TABLE `ai_usage` (
	`organization_id` text NOT NULL,
	`month` text NOT NULL,
	`tokens_used` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `month`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `knowledge_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`file_name` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `knowledge_entries_organization_idx` ON `knowledge_entries` (`organization_id`,`updated_at`);--> statement-breakpoint
ALTER TABLE `agents` ADD `mode` text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE `agents` ADD `knowledge_ids` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `ai_draft` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `transcript` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `transcript_status` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `transcript_error` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `ai_sources` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `suggested_by_ai` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `ai_monthly_token_budget` integer DEFAULT 5000000 NOT NULL;--> statement-breakpoint
-- Below the statements drizzle-kit generated: written by hand, as drizzle-kit does not model
-- FTS5 tables or triggers (issue 18).
--
-- The knowledge the agents read, indexed by word (unicode61, accents folded) so bm25 ranks
-- entries by relevance to what the customer wrote. `organization_id` is indexed too: a query
-- matches the organization's id as a phrase, so it walks that organization's entries only.
CREATE VIRTUAL TABLE `knowledge_fts` USING fts5(`organization_id`, `title`, `content`, content='knowledge_entries', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `knowledge_fts_insert` AFTER INSERT ON `knowledge_entries` BEGIN
  INSERT INTO `knowledge_fts`(rowid, `organization_id`, `title`, `content`) VALUES (new.rowid, new.`organization_id`, new.`title`, new.`content`);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_fts_delete` AFTER DELETE ON `knowledge_entries` BEGIN
  INSERT INTO `knowledge_fts`(`knowledge_fts`, rowid, `organization_id`, `title`, `content`) VALUES ('delete', old.rowid, old.`organization_id`, old.`title`, old.`content`);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_fts_update` AFTER UPDATE OF `title`, `content` ON `knowledge_entries` BEGIN
  INSERT INTO `knowledge_fts`(`knowledge_fts`, rowid, `organization_id`, `title`, `content`) VALUES ('delete', old.rowid, old.`organization_id`, old.`title`, old.`content`);
  INSERT INTO `knowledge_fts`(rowid, `organization_id`, `title`, `content`) VALUES (new.rowid, new.`organization_id`, new.`title`, new.`content`);
END;
--> statement-breakpoint
-- The inbox search also finds what voice notes say: the message index gains the transcript.
DROP TRIGGER `messages_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `messages_fts_delete`;
--> statement-breakpoint
DROP TRIGGER `messages_fts_update`;
--> statement-breakpoint
DROP TABLE `messages_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `messages_fts` USING fts5(`content`, `transcript`, content='messages', content_rowid='rowid', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `messages_fts`(`messages_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts`(rowid, `content`, `transcript`) VALUES (new.rowid, new.`content`, new.`transcript`);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, `content`, `transcript`) VALUES ('delete', old.rowid, old.`content`, old.`transcript`);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF `content`, `transcript` ON `messages` WHEN old.`content` IS NOT new.`content` OR old.`transcript` IS NOT new.`transcript` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, `content`, `transcript`) VALUES ('delete', old.rowid, old.`content`, old.`transcript`);
  INSERT INTO `messages_fts`(rowid, `content`, `transcript`) VALUES (new.rowid, new.`content`, new.`transcript`);
END;
