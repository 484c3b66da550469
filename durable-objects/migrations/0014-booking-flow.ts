/**
 * Store migration 14: the booking Flow (contract section 18, decisions 0095-0098): the Flow on
 * the organization's account, and the single-use tokens a Flow or a fallback list was sent
 * with (durable-objects/schema.ts).
 */
export const BOOKING_FLOW_SQL = `
CREATE TABLE booking_flows (
	organization_id text PRIMARY KEY NOT NULL,
	phone_number_id text,
	flow_id text,
	published integer DEFAULT false NOT NULL,
	error text,
	updated_at text NOT NULL
);

CREATE TABLE flow_tokens (
	token text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	conversation_id text NOT NULL,
	kind text NOT NULL,
	service_id text,
	day text,
	slot text,
	offered text,
	booking_id text,
	created_by text,
	created_at text NOT NULL,
	used_at text,
	completed_at text,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX flow_tokens_conversation_idx ON flow_tokens (conversation_id);
`;
