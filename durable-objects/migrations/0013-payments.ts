/**
 * Store migration 13: payment links (contract section 18, decisions 0091-0093), the
 * organization's alone (no D1 migration): its payment settings (the provider it connected,
 * sealed, and the largest link) and its payments (durable-objects/schema.ts).
 */
export const PAYMENTS_SQL = `
CREATE TABLE payment_settings (
	organization_id text PRIMARY KEY NOT NULL,
	provider text,
	secret_encrypted text,
	webhook_secret_encrypted text,
	account_id text,
	connected_by text,
	connected_at text,
	max_payment_amount real DEFAULT 1000 NOT NULL,
	updated_at text NOT NULL
);

CREATE TABLE payments (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	conversation_id text NOT NULL,
	booking_id text,
	provider text NOT NULL,
	provider_ref text NOT NULL,
	provider_payment_id text,
	amount text NOT NULL,
	currency text NOT NULL,
	description text NOT NULL,
	status text NOT NULL,
	url text NOT NULL,
	expires_at text NOT NULL,
	paid_at text,
	idempotency_key text,
	request_hash text,
	created_by text,
	created_at text NOT NULL,
	updated_at text NOT NULL,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (booking_id) REFERENCES bookings(id) ON UPDATE no action ON DELETE set null
);

CREATE INDEX payments_conversation_idx ON payments (conversation_id,created_at);

CREATE INDEX payments_booking_idx ON payments (booking_id);

CREATE INDEX payments_provider_idx ON payments (organization_id,provider_payment_id);

CREATE UNIQUE INDEX payments_idempotency_idx ON payments (organization_id,idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE INDEX payments_pending_idx ON payments (expires_at) WHERE status = 'pending';
`;
