ALTER TABLE `conversions` ADD `client_ip` text;--> statement-breakpoint
ALTER TABLE `conversions` ADD `client_user_agent` text;--> statement-breakpoint
ALTER TABLE `conversions` ADD `source_url` text;