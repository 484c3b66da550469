-- Message costs were read for the whole WhatsApp Business Account: an organization sharing
-- one with others kept their numbers' costs as its own (docs/decisions/0038, 2026-11-25).
-- They are now read for the organization's number only; what was kept before is forgotten,
-- so the next view reads it again from Meta, for that number.
DELETE FROM `message_costs`;--> statement-breakpoint
DELETE FROM `message_cost_syncs`;
