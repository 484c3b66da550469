-- Each organization's store, reached by the registry's store_id (docs/decisions/0052).
CREATE TABLE `organization_stores` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`store_id` text NOT NULL,
	`jurisdiction` text,
	`state` text DEFAULT 'd1' NOT NULL,
	`moving_to` text,
	`switching_since` text,
	`data_version` integer DEFAULT 0 NOT NULL,
	`schema_version` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_stores_store_id_unique` ON `organization_stores` (`store_id`);;--> statement-breakpoint
-- The organizations that exist keep the object they already have: their hub was named by
-- their id, and it holds their sockets and their scheduled replies and transcripts. From now
-- on the code reads that name from here; new organizations get an id of their own.
INSERT INTO `organization_stores` (`organization_id`, `store_id`, `updated_at`)
  SELECT `id`, `id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM `organizations`;
