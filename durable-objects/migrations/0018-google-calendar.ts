/**
 * Store migration 18 (contract section 18, decisions 0124-0127): the organization's Google
 * Calendar (its sealed grant, the calendar chosen, the pending OAuth state, the revocation and
 * the last busy times read) and each booking's event owed to it.
 */
export const GOOGLE_CALENDAR_SQL = `
CREATE TABLE google_calendars (
	organization_id text PRIMARY KEY NOT NULL,
	refresh_token_encrypted text,
	access_token_encrypted text,
	access_expires_at text,
	calendar_id text DEFAULT 'primary' NOT NULL,
	connected_by text,
	connected_at text,
	state_id text,
	state_expires_at text,
	revoked_at text,
	busy_key text,
	busy_json text,
	busy_read_at text,
	updated_at text NOT NULL
);

CREATE TABLE google_booking_events (
	booking_id text PRIMARY KEY NOT NULL REFERENCES bookings(id) ON DELETE cascade,
	organization_id text NOT NULL,
	calendar_id text,
	present integer DEFAULT false NOT NULL,
	dirty integer DEFAULT true NOT NULL,
	attempts integer DEFAULT 0 NOT NULL,
	last_error text,
	updated_at text NOT NULL
);
CREATE INDEX google_booking_events_dirty_idx ON google_booking_events (organization_id, dirty);
`;
