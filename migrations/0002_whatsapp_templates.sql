CREATE TABLE `whatsapp_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`meta_template_id` text,
	`name` text NOT NULL,
	`language` text NOT NULL,
	`category` text NOT NULL,
	`status` text NOT NULL,
	`components` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_templates_name_idx` ON `whatsapp_templates` (`organization_id`,`name`,`language`);--> statement-breakpoint
CREATE INDEX `whatsapp_templates_meta_idx` ON `whatsapp_templates` (`meta_template_id`);