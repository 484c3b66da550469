-- Written by hand: a store's retention run is recorded in its organization's audit trail, in the
-- store (decision 0153). The runs D1's trail kept, with no organization and no reader, go.
DELETE FROM audit_events WHERE action = 'retention.run' AND organization_id IS NULL;
