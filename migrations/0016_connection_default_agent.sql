-- A number's default agent is an agent of the organization's data, which may live in its store
-- where D1 cannot see it (docs/decisions/0054): no foreign key; deleting the agent clears it.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_whatsapp_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`phone_number_id` text NOT NULL,
	`business_account_id` text NOT NULL,
	`phone_number` text,
	`access_token_encrypted` text NOT NULL,
	`pin_encrypted` text,
	`status` text DEFAULT 'connected' NOT NULL,
	`default_agent_id` text,
	`webhook_token` text,
	`dataset_id` text,
	`connected_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_whatsapp_connections`("id", "organization_id", "phone_number_id", "business_account_id", "phone_number", "access_token_encrypted", "pin_encrypted", "status", "default_agent_id", "webhook_token", "dataset_id", "connected_at", "created_at", "updated_at") SELECT "id", "organization_id", "phone_number_id", "business_account_id", "phone_number", "access_token_encrypted", "pin_encrypted", "status", "default_agent_id", "webhook_token", "dataset_id", "connected_at", "created_at", "updated_at" FROM `whatsapp_connections`;--> statement-breakpoint
DROP TABLE `whatsapp_connections`;--> statement-breakpoint
ALTER TABLE `__new_whatsapp_connections` RENAME TO `whatsapp_connections`;--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_connections_organization_idx` ON `whatsapp_connections` (`organization_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_connections_phone_number_idx` ON `whatsapp_connections` (`phone_number_id`);--> statement-breakpoint
CREATE INDEX `whatsapp_connections_account_idx` ON `whatsapp_connections` (`business_account_id`);--> statement-breakpoint
CREATE INDEX `whatsapp_connections_webhook_token_idx` ON `whatsapp_connections` (`webhook_token`);