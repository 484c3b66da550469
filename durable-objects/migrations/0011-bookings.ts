/**
 * Store migration 11: bookings (contract section 18, decisions 0076-0078), the organization's
 * alone (no D1 migration): its opening hours, away message and notice, its services, its
 * bookings, and the away messages it owes (durable-objects/schema.ts).
 */
export const BOOKINGS_SQL = `
CREATE TABLE booking_settings (
	organization_id text PRIMARY KEY NOT NULL,
	time_zone text,
	week text,
	closed_dates text NOT NULL,
	away_enabled integer DEFAULT false NOT NULL,
	away_text text,
	min_notice_minutes integer DEFAULT 120 NOT NULL,
	updated_at text NOT NULL
);

CREATE TABLE services (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	name text NOT NULL,
	duration_minutes integer NOT NULL,
	buffer_minutes integer DEFAULT 0 NOT NULL,
	price text,
	currency text NOT NULL,
	payment text DEFAULT 'none' NOT NULL,
	deposit text,
	staff_user_ids text NOT NULL,
	active integer DEFAULT true NOT NULL,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE INDEX services_organization_idx ON services (organization_id,id);

CREATE TABLE bookings (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	service_id text,
	service_name text NOT NULL,
	conversation_id text NOT NULL,
	staff_user_id text,
	calendar text NOT NULL,
	starts_at text NOT NULL,
	ends_at text NOT NULL,
	busy_until text NOT NULL,
	status text NOT NULL,
	expires_at text,
	note text,
	reason text,
	idempotency_key text,
	request_hash text,
	created_by text,
	created_at text NOT NULL,
	updated_at text NOT NULL,
	FOREIGN KEY (service_id) REFERENCES services(id) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX bookings_calendar_idx ON bookings (organization_id,calendar,starts_at);

CREATE INDEX bookings_starts_idx ON bookings (organization_id,starts_at);

CREATE INDEX bookings_conversation_idx ON bookings (conversation_id);

CREATE INDEX bookings_service_idx ON bookings (service_id);

CREATE UNIQUE INDEX bookings_idempotency_idx ON bookings (organization_id,idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE INDEX bookings_holds_idx ON bookings (expires_at) WHERE status = 'pending_payment';

CREATE TABLE away_message_sends (
	conversation_id text NOT NULL,
	organization_id text NOT NULL,
	stretch_ends_at text NOT NULL,
	state text NOT NULL,
	created_at text NOT NULL,
	PRIMARY KEY(conversation_id, stretch_ends_at),
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX away_message_sends_pending_idx ON away_message_sends (organization_id) WHERE state = 'pending';
`;
