/**
 * Store migration 5: marketing consent (contract section 17), as D1's migration 0019 adds it
 * for the organizations still there: each customer's opt-out by phone and by BSUID, the
 * conversation's copy with Meta's per-user limit, and the triggers that give a conversation
 * created for a customer (or one that gains an identifier) the newest consent known for them.
 */
export const CONSENT_SQL = `
CREATE TABLE marketing_consents (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	customer text NOT NULL,
	opted_out_at text,
	source text,
	changed_at text NOT NULL,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE UNIQUE INDEX marketing_consents_customer_idx ON marketing_consents (organization_id,customer);

ALTER TABLE conversations ADD marketing_opted_out_at text;
ALTER TABLE conversations ADD marketing_opt_out_source text;
ALTER TABLE conversations ADD marketing_consent_at text;
ALTER TABLE conversations ADD marketing_limited_until text;

CREATE TRIGGER conversations_marketing_consent_insert AFTER INSERT ON conversations BEGIN
  UPDATE conversations SET (marketing_opted_out_at, marketing_opt_out_source, marketing_consent_at) = (
    SELECT opted_out_at, source, changed_at FROM marketing_consents
    WHERE organization_id = new.organization_id AND customer IN (new.phone_number, new.wa_user_id)
    ORDER BY changed_at DESC LIMIT 1)
  WHERE id = new.id AND EXISTS (
    SELECT 1 FROM marketing_consents
    WHERE organization_id = new.organization_id AND customer IN (new.phone_number, new.wa_user_id)
      AND changed_at > coalesce(new.marketing_consent_at, ''));
END;

CREATE TRIGGER conversations_marketing_consent_identity AFTER UPDATE OF phone_number, wa_user_id ON conversations WHEN old.phone_number IS NOT new.phone_number OR old.wa_user_id IS NOT new.wa_user_id BEGIN
  UPDATE conversations SET (marketing_opted_out_at, marketing_opt_out_source, marketing_consent_at) = (
    SELECT opted_out_at, source, changed_at FROM marketing_consents
    WHERE organization_id = new.organization_id AND customer IN (new.phone_number, new.wa_user_id)
    ORDER BY changed_at DESC LIMIT 1)
  WHERE id = new.id AND EXISTS (
    SELECT 1 FROM marketing_consents
    WHERE organization_id = new.organization_id AND customer IN (new.phone_number, new.wa_user_id)
      AND changed_at > coalesce(new.marketing_consent_at, ''));
END;
`;
