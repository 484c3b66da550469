DROP INDEX `conversation_labels_label_idx`;--> statement-breakpoint
CREATE INDEX `conversation_labels_label_idx` ON `conversation_labels` (`organization_id`,`label_id`,`conversation_id`);