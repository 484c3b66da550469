-- The WhatsApp Business app and Meta's own AI on the same number (contract section 16). The
-- organization tables here are also in store migration 4 (durable-objects/store-migration-0004).
CREATE TABLE `history_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`state` text NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `history_imports_organization_idx` ON `history_imports` (`organization_id`);--> statement-breakpoint
CREATE TABLE `history_pages` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`phase` integer NOT NULL,
	`chunk_order` integer NOT NULL,
	`progress` integer NOT NULL,
	`thread_id` text NOT NULL,
	`messages` text NOT NULL,
	`received_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `history_pages_order_idx` ON `history_pages` (`organization_id`,`phase`,`chunk_order`,`id`);--> statement-breakpoint
CREATE TABLE `phone_contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`phone_number` text NOT NULL,
	`full_name` text,
	`first_name` text,
	`changed_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_contacts_phone_idx` ON `phone_contacts` (`organization_id`,`phone_number`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `ai_paused_until` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `controlled_by` text DEFAULT 'app' NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `edited_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `imported` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapp_connections` ADD `coexistence` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `whatsapp_connections` ADD `disconnected_reason` text;--> statement-breakpoint
ALTER TABLE `whatsapp_connections` ADD `contacts_request_id` text;--> statement-breakpoint
ALTER TABLE `whatsapp_connections` ADD `history_request_id` text;