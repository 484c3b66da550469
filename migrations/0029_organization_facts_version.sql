ALTER TABLE `organizations` ADD `facts_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Written by hand: every change of an organization's row or of its WhatsApp connection moves its
-- facts_version, whatever code made it, so that the store keeping those facts never misses one
-- (decision 0136).
CREATE TRIGGER `organizations_facts_update` AFTER UPDATE ON `organizations` WHEN NEW.facts_version = OLD.facts_version
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id = NEW.id; END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_connections_facts_insert` AFTER INSERT ON `whatsapp_connections`
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id = NEW.organization_id; END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_connections_facts_update` AFTER UPDATE ON `whatsapp_connections`
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id IN (OLD.organization_id, NEW.organization_id); END;
--> statement-breakpoint
CREATE TRIGGER `whatsapp_connections_facts_delete` AFTER DELETE ON `whatsapp_connections`
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id = OLD.organization_id; END;
