-- Customers Meta knows by a business-scoped user id (BSUID) and, maybe, no phone
-- (docs/decisions/0037). The phone becomes nullable without rebuilding `conversations`:
-- a rebuild drops the table, and dropping it would cascade to every message. The column is
-- renamed aside, a nullable one added and filled, and the old one dropped; the indexes and
-- search triggers that name it are dropped first and made again.
DROP TRIGGER `conversations_fts_insert`;--> statement-breakpoint
DROP TRIGGER `conversations_fts_delete`;--> statement-breakpoint
DROP TRIGGER `conversations_fts_update`;--> statement-breakpoint
DROP TABLE `conversations_fts`;--> statement-breakpoint
DROP INDEX `conversations_customer_idx`;--> statement-breakpoint
ALTER TABLE `conversations` RENAME COLUMN `phone_number` TO `phone_number_before_0008`;--> statement-breakpoint
ALTER TABLE `conversations` ADD `phone_number` text;--> statement-breakpoint
UPDATE `conversations` SET `phone_number` = `phone_number_before_0008`;--> statement-breakpoint
ALTER TABLE `conversations` DROP COLUMN `phone_number_before_0008`;--> statement-breakpoint
ALTER TABLE `conversations` ADD `username` text;--> statement-breakpoint
-- A BSUID names one customer: should two conversations hold the same one (only possible
-- before this migration), the older keeps it.
UPDATE `conversations` SET `wa_user_id` = NULL WHERE `wa_user_id` IS NOT NULL AND rowid NOT IN (
  SELECT min(rowid) FROM `conversations` WHERE `wa_user_id` IS NOT NULL GROUP BY `organization_id`, `wa_user_id`
);--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_customer_idx` ON `conversations` (`organization_id`,`phone_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_user_idx` ON `conversations` (`organization_id`,`wa_user_id`);--> statement-breakpoint
-- The inbox search finds a customer by name, phone or username.
CREATE VIRTUAL TABLE `conversations_fts` USING fts5(`contact_name`, `phone_number`, `username`, content='conversations', content_rowid='rowid', tokenize='trigram');--> statement-breakpoint
INSERT INTO `conversations_fts`(`conversations_fts`) VALUES ('rebuild');--> statement-breakpoint
CREATE TRIGGER `conversations_fts_insert` AFTER INSERT ON `conversations` BEGIN
  INSERT INTO `conversations_fts`(rowid, `contact_name`, `phone_number`, `username`) VALUES (new.rowid, new.`contact_name`, new.`phone_number`, new.`username`);
END;--> statement-breakpoint
CREATE TRIGGER `conversations_fts_delete` AFTER DELETE ON `conversations` BEGIN
  INSERT INTO `conversations_fts`(`conversations_fts`, rowid, `contact_name`, `phone_number`, `username`) VALUES ('delete', old.rowid, old.`contact_name`, old.`phone_number`, old.`username`);
END;--> statement-breakpoint
CREATE TRIGGER `conversations_fts_update` AFTER UPDATE OF `contact_name`, `phone_number`, `username` ON `conversations` WHEN old.`contact_name` IS NOT new.`contact_name` OR old.`phone_number` IS NOT new.`phone_number` OR old.`username` IS NOT new.`username` BEGIN
  INSERT INTO `conversations_fts`(`conversations_fts`, rowid, `contact_name`, `phone_number`, `username`) VALUES ('delete', old.rowid, old.`contact_name`, old.`phone_number`, old.`username`);
  INSERT INTO `conversations_fts`(rowid, `contact_name`, `phone_number`, `username`) VALUES (new.rowid, new.`contact_name`, new.`phone_number`, new.`username`);
END;--> statement-breakpoint
ALTER TABLE `messages` ADD `billable` integer;--> statement-breakpoint
ALTER TABLE `messages` ADD `pricing_category` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `pricing_type` text;--> statement-breakpoint
CREATE TABLE `message_costs` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`category` text NOT NULL,
	`country` text NOT NULL,
	`volume` integer NOT NULL,
	`cost` real NOT NULL,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `day`, `category`, `country`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
