CREATE TABLE `message_cost_syncs` (
	`organization_id` text NOT NULL,
	`day` text NOT NULL,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `day`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
