/**
 * Store migration 12 (decisions 0080 and 0082): what the owner allows marketing, one row
 * (durable-objects/schema.ts); and the phone's address book kept only for customers
 * who have a conversation. Entries without one are dropped now; from now on an entry goes with
 * the last conversation of its phone (retention, erasure, a conversation deleted or moved to
 * another number for any reason), and one that never named a conversation goes when the app's
 * history has landed (the import ends) or, at the latest, on the store's retention run a day
 * after it came (durable-objects/retention/service.ts).
 */
export const MARKETING_LIMITS_SQL = `
CREATE TABLE marketing_limits (
	organization_id text PRIMARY KEY NOT NULL,
	monthly_sends integer,
	monthly_cost real,
	currency text,
	frequency_max integer DEFAULT 2 NOT NULL,
	frequency_days integer DEFAULT 7 NOT NULL,
	updated_at text NOT NULL
);

DELETE FROM phone_contacts WHERE NOT EXISTS (
	SELECT 1 FROM conversations AS c
	WHERE c.organization_id = phone_contacts.organization_id
		AND c.phone_number = phone_contacts.phone_number);

CREATE TRIGGER phone_contacts_expire AFTER DELETE ON conversations
WHEN old.phone_number IS NOT NULL
BEGIN
	DELETE FROM phone_contacts
	WHERE organization_id = old.organization_id AND phone_number = old.phone_number
		AND NOT EXISTS (SELECT 1 FROM conversations AS c
			WHERE c.organization_id = old.organization_id AND c.phone_number = old.phone_number);
END;

CREATE TRIGGER phone_contacts_after_import AFTER UPDATE OF state ON history_imports
WHEN new.state NOT IN ('requested', 'importing')
BEGIN
	DELETE FROM phone_contacts
	WHERE organization_id = new.organization_id AND NOT EXISTS (SELECT 1 FROM conversations AS c
		WHERE c.organization_id = new.organization_id AND c.phone_number = phone_contacts.phone_number);
END;

CREATE TRIGGER phone_contacts_follow_phone AFTER UPDATE OF phone_number ON conversations
WHEN old.phone_number IS NOT NULL AND old.phone_number IS NOT new.phone_number
BEGIN
	DELETE FROM phone_contacts
	WHERE organization_id = old.organization_id AND phone_number = old.phone_number
		AND NOT EXISTS (SELECT 1 FROM conversations AS c
			WHERE c.organization_id = old.organization_id AND c.phone_number = old.phone_number);
END;
`;
