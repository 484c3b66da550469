-- The team inbox for people (contract section 14, docs/decisions/0039): who holds a
-- conversation, round robin with availability and capacity, labels, internal notes and mentions.
CREATE TABLE `conversation_labels` (
	`conversation_id` text NOT NULL,
	`label_id` text NOT NULL,
	`organization_id` text NOT NULL,
	PRIMARY KEY(`conversation_id`, `label_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_labels_label_idx` ON `conversation_labels` (`label_id`,`conversation_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_name_idx` ON `labels` (`organization_id`,`name`);--> statement-breakpoint
CREATE TABLE `mentions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`note_id` text NOT NULL,
	`author_id` text,
	`read_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `mentions_user_idx` ON `mentions` (`user_id`,`read_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `mentions_conversation_idx` ON `mentions` (`conversation_id`);--> statement-breakpoint
CREATE INDEX `mentions_note_idx` ON `mentions` (`note_id`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `assignee_id` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `conversations` ADD `labels` text;--> statement-breakpoint
CREATE INDEX `conversations_assignee_idx` ON `conversations` (`organization_id`,`assignee_id`,`last_message_at`);--> statement-breakpoint
ALTER TABLE `memberships` ADD `available` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `memberships` ADD `max_open` integer;--> statement-breakpoint
ALTER TABLE `memberships` ADD `last_assigned_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `mentions` text;--> statement-breakpoint
ALTER TABLE `organizations` ADD `auto_assign` text DEFAULT 'off' NOT NULL;