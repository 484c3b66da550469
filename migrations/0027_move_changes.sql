CREATE TABLE `move_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`table_name` text NOT NULL,
	`key` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `move_changes_key_idx` ON `move_changes` (`organization_id`,`table_name`,`key`);--> statement-breakpoint
-- Written by hand: a move's pages read by (organization_id, key) in key order, and the keys written
-- while an organization moves into its store (decision 0070).
--> statement-breakpoint
CREATE INDEX `agents_move_idx` ON `agents` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `agents_move_insert` AFTER INSERT ON `agents` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'agents', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `agents_move_update` AFTER UPDATE ON `agents` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'agents', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'agents', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `agents_move_delete` AFTER DELETE ON `agents` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'agents', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `quick_replies_move_idx` ON `quick_replies` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `quick_replies_move_insert` AFTER INSERT ON `quick_replies` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'quick_replies', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `quick_replies_move_update` AFTER UPDATE ON `quick_replies` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'quick_replies', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'quick_replies', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `quick_replies_move_delete` AFTER DELETE ON `quick_replies` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'quick_replies', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `tracking_sessions_move_idx` ON `tracking_sessions` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `tracking_sessions_move_insert` AFTER INSERT ON `tracking_sessions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'tracking_sessions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `tracking_sessions_move_update` AFTER UPDATE ON `tracking_sessions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'tracking_sessions', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'tracking_sessions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `tracking_sessions_move_delete` AFTER DELETE ON `tracking_sessions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'tracking_sessions', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `labels_move_idx` ON `labels` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `labels_move_insert` AFTER INSERT ON `labels` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'labels', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `labels_move_update` AFTER UPDATE ON `labels` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'labels', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'labels', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `labels_move_delete` AFTER DELETE ON `labels` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'labels', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `knowledge_entries_move_idx` ON `knowledge_entries` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `knowledge_entries_move_insert` AFTER INSERT ON `knowledge_entries` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'knowledge_entries', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_entries_move_update` AFTER UPDATE ON `knowledge_entries` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'knowledge_entries', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'knowledge_entries', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_entries_move_delete` AFTER DELETE ON `knowledge_entries` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'knowledge_entries', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `whatsapp_templates_move_idx` ON `whatsapp_templates` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `whatsapp_templates_move_insert` AFTER INSERT ON `whatsapp_templates` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'whatsapp_templates', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_templates_move_update` AFTER UPDATE ON `whatsapp_templates` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'whatsapp_templates', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'whatsapp_templates', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_templates_move_delete` AFTER DELETE ON `whatsapp_templates` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'whatsapp_templates', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `conversations_move_idx` ON `conversations` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `conversations_move_insert` AFTER INSERT ON `conversations` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversations', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversations_move_update` AFTER UPDATE ON `conversations` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversations', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversations', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversations_move_delete` AFTER DELETE ON `conversations` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversations', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `conversation_labels_move_idx` ON `conversation_labels` (`organization_id`,`conversation_id`,`label_id`);
--> statement-breakpoint
CREATE TRIGGER `conversation_labels_move_insert` AFTER INSERT ON `conversation_labels` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversation_labels', json_array(NEW.conversation_id, NEW.label_id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversation_labels_move_update` AFTER UPDATE ON `conversation_labels` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversation_labels', json_array(OLD.conversation_id, OLD.label_id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversation_labels', json_array(NEW.conversation_id, NEW.label_id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversation_labels_move_delete` AFTER DELETE ON `conversation_labels` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversation_labels', json_array(OLD.conversation_id, OLD.label_id)); END;
--> statement-breakpoint
CREATE INDEX `messages_move_idx` ON `messages` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `messages_move_insert` AFTER INSERT ON `messages` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'messages', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `messages_move_update` AFTER UPDATE ON `messages` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'messages', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'messages', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `messages_move_delete` AFTER DELETE ON `messages` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'messages', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `mentions_move_idx` ON `mentions` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `mentions_move_insert` AFTER INSERT ON `mentions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'mentions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `mentions_move_update` AFTER UPDATE ON `mentions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'mentions', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'mentions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `mentions_move_delete` AFTER DELETE ON `mentions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'mentions', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `conversions_move_idx` ON `conversions` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `conversions_move_insert` AFTER INSERT ON `conversions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversions_move_update` AFTER UPDATE ON `conversions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversions', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversions_move_delete` AFTER DELETE ON `conversions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversions', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `conversion_suggestions_move_idx` ON `conversion_suggestions` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `conversion_suggestions_move_insert` AFTER INSERT ON `conversion_suggestions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversion_suggestions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversion_suggestions_move_update` AFTER UPDATE ON `conversion_suggestions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversion_suggestions', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'conversion_suggestions', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `conversion_suggestions_move_delete` AFTER DELETE ON `conversion_suggestions` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'conversion_suggestions', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `ai_calls_move_idx` ON `ai_calls` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `ai_calls_move_insert` AFTER INSERT ON `ai_calls` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ai_calls', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `ai_calls_move_update` AFTER UPDATE ON `ai_calls` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ai_calls', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ai_calls', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `ai_calls_move_delete` AFTER DELETE ON `ai_calls` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ai_calls', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE TRIGGER `ai_usage_move_insert` AFTER INSERT ON `ai_usage` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ai_usage', json_array(NEW.month)); END;
--> statement-breakpoint
CREATE TRIGGER `ai_usage_move_update` AFTER UPDATE ON `ai_usage` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ai_usage', json_array(OLD.month)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ai_usage', json_array(NEW.month)); END;
--> statement-breakpoint
CREATE TRIGGER `ai_usage_move_delete` AFTER DELETE ON `ai_usage` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ai_usage', json_array(OLD.month)); END;
--> statement-breakpoint
CREATE TRIGGER `ad_spend_move_insert` AFTER INSERT ON `ad_spend` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ad_spend', json_array(NEW.ad_id, NEW.day)); END;
--> statement-breakpoint
CREATE TRIGGER `ad_spend_move_update` AFTER UPDATE ON `ad_spend` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ad_spend', json_array(OLD.ad_id, OLD.day)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ad_spend', json_array(NEW.ad_id, NEW.day)); END;
--> statement-breakpoint
CREATE TRIGGER `ad_spend_move_delete` AFTER DELETE ON `ad_spend` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ad_spend', json_array(OLD.ad_id, OLD.day)); END;
--> statement-breakpoint
CREATE TRIGGER `ad_spend_syncs_move_insert` AFTER INSERT ON `ad_spend_syncs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ad_spend_syncs', json_array(NEW.day)); END;
--> statement-breakpoint
CREATE TRIGGER `ad_spend_syncs_move_update` AFTER UPDATE ON `ad_spend_syncs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ad_spend_syncs', json_array(OLD.day)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'ad_spend_syncs', json_array(NEW.day)); END;
--> statement-breakpoint
CREATE TRIGGER `ad_spend_syncs_move_delete` AFTER DELETE ON `ad_spend_syncs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'ad_spend_syncs', json_array(OLD.day)); END;
--> statement-breakpoint
CREATE TRIGGER `message_costs_move_insert` AFTER INSERT ON `message_costs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'message_costs', json_array(NEW.day, NEW.category, NEW.country)); END;
--> statement-breakpoint
CREATE TRIGGER `message_costs_move_update` AFTER UPDATE ON `message_costs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'message_costs', json_array(OLD.day, OLD.category, OLD.country)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'message_costs', json_array(NEW.day, NEW.category, NEW.country)); END;
--> statement-breakpoint
CREATE TRIGGER `message_costs_move_delete` AFTER DELETE ON `message_costs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'message_costs', json_array(OLD.day, OLD.category, OLD.country)); END;
--> statement-breakpoint
CREATE TRIGGER `message_cost_syncs_move_insert` AFTER INSERT ON `message_cost_syncs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'message_cost_syncs', json_array(NEW.day)); END;
--> statement-breakpoint
CREATE TRIGGER `message_cost_syncs_move_update` AFTER UPDATE ON `message_cost_syncs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'message_cost_syncs', json_array(OLD.day)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'message_cost_syncs', json_array(NEW.day)); END;
--> statement-breakpoint
CREATE TRIGGER `message_cost_syncs_move_delete` AFTER DELETE ON `message_cost_syncs` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'message_cost_syncs', json_array(OLD.day)); END;
--> statement-breakpoint
CREATE INDEX `audit_events_move_idx` ON `audit_events` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `audit_events_move_insert` AFTER INSERT ON `audit_events` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'audit_events', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `audit_events_move_update` AFTER UPDATE ON `audit_events` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'audit_events', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'audit_events', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `audit_events_move_delete` AFTER DELETE ON `audit_events` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'audit_events', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `phone_contacts_move_idx` ON `phone_contacts` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `phone_contacts_move_insert` AFTER INSERT ON `phone_contacts` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'phone_contacts', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `phone_contacts_move_update` AFTER UPDATE ON `phone_contacts` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'phone_contacts', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'phone_contacts', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `phone_contacts_move_delete` AFTER DELETE ON `phone_contacts` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'phone_contacts', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE TRIGGER `history_imports_move_insert` AFTER INSERT ON `history_imports` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'history_imports', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `history_imports_move_update` AFTER UPDATE ON `history_imports` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'history_imports', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'history_imports', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `history_imports_move_delete` AFTER DELETE ON `history_imports` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'history_imports', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `history_pages_move_idx` ON `history_pages` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `history_pages_move_insert` AFTER INSERT ON `history_pages` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'history_pages', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `history_pages_move_update` AFTER UPDATE ON `history_pages` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'history_pages', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'history_pages', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `history_pages_move_delete` AFTER DELETE ON `history_pages` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'history_pages', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `marketing_consents_move_idx` ON `marketing_consents` (`organization_id`,`id`);
--> statement-breakpoint
CREATE TRIGGER `marketing_consents_move_insert` AFTER INSERT ON `marketing_consents` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'marketing_consents', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `marketing_consents_move_update` AFTER UPDATE ON `marketing_consents` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'marketing_consents', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'marketing_consents', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `marketing_consents_move_delete` AFTER DELETE ON `marketing_consents` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'marketing_consents', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE TRIGGER `broadcasts_move_insert` AFTER INSERT ON `broadcasts` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'broadcasts', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `broadcasts_move_update` AFTER UPDATE ON `broadcasts` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'broadcasts', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'broadcasts', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `broadcasts_move_delete` AFTER DELETE ON `broadcasts` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'broadcasts', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `broadcast_recipients_move_idx` ON `broadcast_recipients` (`organization_id`,`broadcast_id`,`conversation_id`);
--> statement-breakpoint
CREATE TRIGGER `broadcast_recipients_move_insert` AFTER INSERT ON `broadcast_recipients` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'broadcast_recipients', json_array(NEW.broadcast_id, NEW.conversation_id)); END;
--> statement-breakpoint
CREATE TRIGGER `broadcast_recipients_move_update` AFTER UPDATE ON `broadcast_recipients` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'broadcast_recipients', json_array(OLD.broadcast_id, OLD.conversation_id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'broadcast_recipients', json_array(NEW.broadcast_id, NEW.conversation_id)); END;
--> statement-breakpoint
CREATE TRIGGER `broadcast_recipients_move_delete` AFTER DELETE ON `broadcast_recipients` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'broadcast_recipients', json_array(OLD.broadcast_id, OLD.conversation_id)); END;
--> statement-breakpoint
CREATE TRIGGER `follow_ups_move_insert` AFTER INSERT ON `follow_ups` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'follow_ups', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `follow_ups_move_update` AFTER UPDATE ON `follow_ups` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'follow_ups', json_array(OLD.id)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'follow_ups', json_array(NEW.id)); END;
--> statement-breakpoint
CREATE TRIGGER `follow_ups_move_delete` AFTER DELETE ON `follow_ups` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'follow_ups', json_array(OLD.id)); END;
--> statement-breakpoint
CREATE INDEX `follow_up_sends_move_idx` ON `follow_up_sends` (`organization_id`,`follow_up_id`,`conversation_id`,`waited_since`);
--> statement-breakpoint
CREATE TRIGGER `follow_up_sends_move_insert` AFTER INSERT ON `follow_up_sends` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'follow_up_sends', json_array(NEW.follow_up_id, NEW.conversation_id, NEW.waited_since)); END;
--> statement-breakpoint
CREATE TRIGGER `follow_up_sends_move_update` AFTER UPDATE ON `follow_up_sends` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'follow_up_sends', json_array(OLD.follow_up_id, OLD.conversation_id, OLD.waited_since)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'follow_up_sends', json_array(NEW.follow_up_id, NEW.conversation_id, NEW.waited_since)); END;
--> statement-breakpoint
CREATE TRIGGER `follow_up_sends_move_delete` AFTER DELETE ON `follow_up_sends` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'follow_up_sends', json_array(OLD.follow_up_id, OLD.conversation_id, OLD.waited_since)); END;
--> statement-breakpoint
CREATE TRIGGER `held_statuses_move_insert` AFTER INSERT ON `held_statuses` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'held_statuses', json_array(NEW.wamid, NEW.status)); END;
--> statement-breakpoint
CREATE TRIGGER `held_statuses_move_update` AFTER UPDATE ON `held_statuses` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = NEW.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'held_statuses', json_array(OLD.wamid, OLD.status)); INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (NEW.organization_id, 'held_statuses', json_array(NEW.wamid, NEW.status)); END;
--> statement-breakpoint
CREATE TRIGGER `held_statuses_move_delete` AFTER DELETE ON `held_statuses` WHEN EXISTS (SELECT 1 FROM organization_stores WHERE organization_id = OLD.organization_id AND moving_to = 'store')
BEGIN INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES (OLD.organization_id, 'held_statuses', json_array(OLD.wamid, OLD.status)); END;
