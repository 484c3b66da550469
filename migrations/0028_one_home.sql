-- Written by hand (decision 0075): one home for each organization's data, its store.
-- First, the guard: this release serves an organization only from its store, so it refuses to
-- run while any organization's data is still only in D1 (never moved, in the middle of a move, or
-- moved before its store held all of it). Deploy the upgrade stop (README), run
-- `npm run stores -- move --all`, then apply this again. The refusal reads
-- "CHECK constraint failed: organizations_still_in_d1 = 0", and nothing below has run.
CREATE TABLE IF NOT EXISTS `one_home_guard` (`organizations_still_in_d1` integer NOT NULL CHECK (`organizations_still_in_d1` = 0));
--> statement-breakpoint
INSERT INTO `one_home_guard` SELECT count(*) FROM `organization_stores` WHERE `state` <> 'store' OR `data_version` < 3;
--> statement-breakpoint
DROP TABLE `one_home_guard`;
--> statement-breakpoint
-- The move's record of keys written while an organization moved (0027), and what records it on
-- the one table that stays (the organizations' tables take theirs with them).
DROP TRIGGER `audit_events_move_insert`;
--> statement-breakpoint
DROP TRIGGER `audit_events_move_update`;
--> statement-breakpoint
DROP TRIGGER `audit_events_move_delete`;
--> statement-breakpoint
DROP INDEX `audit_events_move_idx`;
--> statement-breakpoint
DROP TABLE `move_changes`;
--> statement-breakpoint
-- The organizations' tables: D1's copies of what every store now holds. Children first (D1
-- enforces foreign keys while a table is emptied to be dropped); a table's indexes and
-- triggers go with it, and a search index's own tables with it.
DROP TABLE `held_statuses`;
--> statement-breakpoint
DROP TABLE `follow_up_sends`;
--> statement-breakpoint
DROP TABLE `follow_ups`;
--> statement-breakpoint
DROP TABLE `broadcast_recipients`;
--> statement-breakpoint
DROP TABLE `broadcasts`;
--> statement-breakpoint
DROP TABLE `marketing_consents`;
--> statement-breakpoint
DROP TABLE `history_pages`;
--> statement-breakpoint
DROP TABLE `history_imports`;
--> statement-breakpoint
DROP TABLE `phone_contacts`;
--> statement-breakpoint
DROP TABLE `message_cost_syncs`;
--> statement-breakpoint
DROP TABLE `message_costs`;
--> statement-breakpoint
DROP TABLE `ad_spend_syncs`;
--> statement-breakpoint
DROP TABLE `ad_spend`;
--> statement-breakpoint
DROP TABLE `ai_usage`;
--> statement-breakpoint
DROP TABLE `ai_calls`;
--> statement-breakpoint
DROP TABLE `conversion_suggestions`;
--> statement-breakpoint
DROP TABLE `conversions`;
--> statement-breakpoint
DROP TABLE `mentions`;
--> statement-breakpoint
DROP TABLE `messages_fts`;
--> statement-breakpoint
DROP TABLE `messages`;
--> statement-breakpoint
DROP TABLE `conversation_labels`;
--> statement-breakpoint
DROP TABLE `conversation_counts`;
--> statement-breakpoint
DROP TABLE `conversations_fts`;
--> statement-breakpoint
DROP TABLE `conversations`;
--> statement-breakpoint
DROP TABLE `whatsapp_templates`;
--> statement-breakpoint
DROP TABLE `knowledge_fts`;
--> statement-breakpoint
DROP TABLE `knowledge_entries`;
--> statement-breakpoint
DROP TABLE `labels`;
--> statement-breakpoint
DROP TABLE `tracking_sessions`;
--> statement-breakpoint
DROP TABLE `quick_replies`;
--> statement-breakpoint
DROP TABLE `agents`;
--> statement-breakpoint
-- An organization's trail is its store's; D1 keeps only entries about an account alone.
DELETE FROM `audit_events` WHERE `organization_id` IS NOT NULL;
--> statement-breakpoint
-- What the registry kept for moves: where a move went, since when it held writes, the version
-- its data moved at, the parts held during one, and D1's 30-day copy.
ALTER TABLE `organization_stores` DROP COLUMN `moving_to`;
--> statement-breakpoint
ALTER TABLE `organization_stores` DROP COLUMN `switching_since`;
--> statement-breakpoint
ALTER TABLE `organization_stores` DROP COLUMN `data_version`;
--> statement-breakpoint
ALTER TABLE `organization_stores` DROP COLUMN `stuck_parts`;
--> statement-breakpoint
ALTER TABLE `organization_stores` DROP COLUMN `d1_copy_until`;
