CREATE TABLE `deleted_organizations` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`deleted_at` text NOT NULL
);
