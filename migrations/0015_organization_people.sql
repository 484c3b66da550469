-- The organizations a person has been part of or invited to (docs/decisions/0053): an account's
-- export and deletion visit these, wherever each one's data is.
CREATE TABLE `organization_people` (
	`organization_id` text NOT NULL,
	`user_id` text,
	`email` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_people_user_idx` ON `organization_people` (`user_id`,`organization_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `organization_people_email_idx` ON `organization_people` (`email`,`organization_id`);--> statement-breakpoint
-- By user id, whoever the organization's data names today: its members, the people its trail
-- says acted, those its notes mentioned.
INSERT OR IGNORE INTO `organization_people` (`organization_id`, `user_id`, `created_at`)
  SELECT `organization_id`, `user_id`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM (
    SELECT `organization_id`, `user_id` FROM `memberships`
    UNION SELECT `organization_id`, `user_id` FROM `audit_events`
      WHERE `organization_id` IS NOT NULL AND `user_id` IS NOT NULL
    UNION SELECT `organization_id`, `user_id` FROM `mentions`
  );--> statement-breakpoint
-- By e-mail, whoever it invited: its invitations, and those its trail says it invited (a revoked
-- invitation is deleted, its entry stays).
INSERT OR IGNORE INTO `organization_people` (`organization_id`, `email`, `created_at`)
  SELECT `organization_id`, `email`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM (
    SELECT `organization_id`, `email` FROM `invitations`
    UNION SELECT `organization_id`, `target` FROM `audit_events`
      WHERE `action` = 'member.invite' AND `organization_id` IS NOT NULL AND `target` IS NOT NULL
  );
