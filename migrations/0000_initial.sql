CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`model` text DEFAULT 'google/gemini-2.5-flash' NOT NULL,
	`temperature` real DEFAULT 0.7 NOT NULL,
	`system_prompt` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`whatsapp_status` text DEFAULT 'disconnected' NOT NULL,
	`whatsapp_qr` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `agents_organization_idx` ON `agents` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ai_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`agent_id` text,
	`conversation_id` text,
	`model` text NOT NULL,
	`prompt_tokens` integer,
	`completion_tokens` integer,
	`latency_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ai_calls_agent_idx` ON `ai_calls` (`organization_id`,`agent_id`);--> statement-breakpoint
CREATE INDEX `ai_calls_conversation_idx` ON `ai_calls` (`conversation_id`);--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text,
	`user_id` text,
	`action` text NOT NULL,
	`target` text,
	`metadata` text,
	`ip` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_events_organization_idx` ON `audit_events` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_user_idx` ON `audit_events` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`platform` text DEFAULT 'whatsapp' NOT NULL,
	`phone_number` text NOT NULL,
	`wa_user_id` text,
	`contact_name` text,
	`status` text DEFAULT 'open' NOT NULL,
	`priority` text DEFAULT 'medium' NOT NULL,
	`unread_count` integer DEFAULT 0 NOT NULL,
	`agent_id` text,
	`last_message_at` text NOT NULL,
	`last_message_preview` text,
	`last_inbound_at` text,
	`fbclid` text,
	`ctwa_clid` text,
	`ad_id` text,
	`ad_headline` text,
	`tracking_session_id` text,
	`ai_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`tracking_session_id`) REFERENCES `tracking_sessions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_customer_idx` ON `conversations` (`organization_id`,`phone_number`);--> statement-breakpoint
CREATE INDEX `conversations_recent_idx` ON `conversations` (`organization_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_status_idx` ON `conversations` (`organization_id`,`status`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_priority_idx` ON `conversations` (`organization_id`,`priority`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_agent_idx` ON `conversations` (`organization_id`,`agent_id`,`last_message_at`);--> statement-breakpoint
CREATE INDEX `conversations_last_message_idx` ON `conversations` (`last_message_at`);--> statement-breakpoint
CREATE TABLE `conversions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`tracking_session_id` text,
	`conversation_id` text,
	`event_name` text NOT NULL,
	`event_id` text NOT NULL,
	`phone_number` text,
	`tracking_params` text,
	`source` text,
	`campaign` text,
	`conversion_value` real,
	`currency` text,
	`custom_data` text,
	`ctwa_clid` text,
	`event_time` text NOT NULL,
	`capi_status` text DEFAULT 'not_sent' NOT NULL,
	`capi_result` text,
	`capi_attempts` integer DEFAULT 0 NOT NULL,
	`capi_next_attempt_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tracking_session_id`) REFERENCES `tracking_sessions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `conversions_organization_time_idx` ON `conversions` (`organization_id`,`event_time`);--> statement-breakpoint
CREATE INDEX `conversions_organization_event_idx` ON `conversions` (`organization_id`,`event_name`,`event_time`);--> statement-breakpoint
CREATE INDEX `conversions_capi_queue_idx` ON `conversions` (`capi_status`,`capi_next_attempt_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `conversions_ctwa_idx` ON `conversions` (`organization_id`,`ctwa_clid`,`event_name`) WHERE ctwa_clid IS NOT NULL;--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`expires_at` text NOT NULL,
	`accepted_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_idx` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `invitations_organization_idx` ON `invitations` (`organization_id`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_user_idx` ON `memberships` (`user_id`);--> statement-breakpoint
CREATE INDEX `memberships_organization_idx` ON `memberships` (`organization_id`,`role`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`wamid` text,
	`type` text DEFAULT 'text' NOT NULL,
	`content` text NOT NULL,
	`direction` text NOT NULL,
	`sender_type` text NOT NULL,
	`sender_user_id` text,
	`status` text NOT NULL,
	`error` text,
	`error_code` text,
	`media_id` text,
	`media_mime_type` text,
	`referral` text,
	`reactions` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_wamid_idx` ON `messages` (`organization_id`,`wamid`);--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `meta_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`pixel_id` text NOT NULL,
	`ad_account_id` text,
	`access_token_encrypted` text NOT NULL,
	`status` text DEFAULT 'connected' NOT NULL,
	`test_event_code` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `meta_connections_organization_idx` ON `meta_connections` (`organization_id`);--> statement-breakpoint
CREATE TABLE `oauth_exchanges` (
	`organization_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`access_token_encrypted` text,
	`error` text,
	`created_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `code_hash`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`industry` text NOT NULL,
	`description` text,
	`address` text,
	`employee_count` text NOT NULL,
	`services_offered` text NOT NULL,
	`business_hours` text NOT NULL,
	`city` text NOT NULL,
	`country` text NOT NULL,
	`ai_use_case` text NOT NULL,
	`tracking_key` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_tracking_key_idx` ON `organizations` (`tracking_key`);--> statement-breakpoint
CREATE TABLE `quick_replies` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`shortcut` text NOT NULL,
	`content` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quick_replies_shortcut_idx` ON `quick_replies` (`organization_id`,`shortcut`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`reset_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`user_agent` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `tracking_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`tracking_params` text NOT NULL,
	`fbclid` text,
	`utm_source` text,
	`utm_campaign` text,
	`ref` text,
	`user_agent` text,
	`referrer` text,
	`landing_page` text,
	`client_ip` text,
	`phone_number` text,
	`created_at` text NOT NULL,
	`last_activity_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tracking_sessions_organization_idx` ON `tracking_sessions` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `tracking_sessions_ref_idx` ON `tracking_sessions` (`organization_id`,`ref`);--> statement-breakpoint
CREATE INDEX `tracking_sessions_phone_idx` ON `tracking_sessions` (`organization_id`,`phone_number`);--> statement-breakpoint
CREATE INDEX `tracking_sessions_activity_idx` ON `tracking_sessions` (`last_activity_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`full_name` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `whatsapp_connections` (
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
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`default_agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_connections_organization_idx` ON `whatsapp_connections` (`organization_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapp_connections_phone_number_idx` ON `whatsapp_connections` (`phone_number_id`);--> statement-breakpoint
CREATE INDEX `whatsapp_connections_account_idx` ON `whatsapp_connections` (`business_account_id`);--> statement-breakpoint
CREATE INDEX `whatsapp_connections_webhook_token_idx` ON `whatsapp_connections` (`webhook_token`);