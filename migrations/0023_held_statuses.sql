CREATE TABLE `held_statuses` (
	`organization_id` text NOT NULL,
	`wamid` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`received_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `wamid`, `status`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `held_statuses_received_idx` ON `held_statuses` (`received_at`);