-- Written by hand: the organization's pixel (its Meta connection, with its sealed token) is one
-- of the facts its store keeps, so every change of it moves facts_version too, whatever code
-- made it (decision 0136, as migration 0029 does for the organization and its WhatsApp number).
CREATE TRIGGER `meta_connections_facts_insert` AFTER INSERT ON `meta_connections`
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id = NEW.organization_id; END;
--> statement-breakpoint
CREATE TRIGGER `meta_connections_facts_update` AFTER UPDATE ON `meta_connections`
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id IN (OLD.organization_id, NEW.organization_id); END;
--> statement-breakpoint
CREATE TRIGGER `meta_connections_facts_delete` AFTER DELETE ON `meta_connections`
BEGIN UPDATE organizations SET facts_version = facts_version + 1 WHERE id = OLD.organization_id; END;
--> statement-breakpoint
-- Copies kept before this release have no pixel: moving every version makes each store read its
-- facts again at its next request or delivery.
UPDATE organizations SET facts_version = facts_version + 1;
