CREATE TABLE `ad_spend` (
	`organization_id` text NOT NULL,
	`ad_id` text NOT NULL,
	`day` text NOT NULL,
	`ad_name` text,
	`spend` real NOT NULL,
	`currency` text,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `ad_id`, `day`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `ad_spend_syncs` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `day`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `conversion_suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`wamid` text NOT NULL,
	`event_name` text NOT NULL,
	`value` real,
	`currency` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`conversion_id` text,
	`detected_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversion_id`) REFERENCES `conversions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversion_suggestions_wamid_idx` ON `conversion_suggestions` (`organization_id`,`wamid`,`event_name`);--> statement-breakpoint
CREATE INDEX `conversion_suggestions_conversation_idx` ON `conversion_suggestions` (`conversation_id`,`status`);--> statement-breakpoint
DROP INDEX `conversions_ctwa_idx`;--> statement-breakpoint
ALTER TABLE `conversions` ADD `dedupe_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `conversions_ctwa_event_idx` ON `conversions` (`organization_id`,`ctwa_clid`,`event_name`) WHERE ctwa_clid IS NOT NULL AND event_name <> 'purchase';--> statement-breakpoint
CREATE UNIQUE INDEX `conversions_dedupe_idx` ON `conversions` (`organization_id`,`dedupe_key`) WHERE dedupe_key IS NOT NULL;--> statement-breakpoint
ALTER TABLE `agents` ADD `can_mark_leads` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `stage` text DEFAULT 'new' NOT NULL;--> statement-breakpoint
CREATE INDEX `conversations_stage_idx` ON `conversations` (`organization_id`,`stage`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_ad_idx` ON `conversations` (`organization_id`,`ad_id`);--> statement-breakpoint
ALTER TABLE `organizations` ADD `currency` text DEFAULT 'EUR' NOT NULL;