/**
 * Store migration 17 (contract section 18, decisions 0120-0123): booking reminders. The
 * organization's chosen UTILITY template (name and language) sits beside its other bookings
 * settings; each confirmed booking has at most one reminder, keyed by the booking (so a run that
 * repeats sends nothing twice), due a day before its start; the customer's answers to a
 * reminder's buttons wait in `booking_reminder_answers` for the store's job to act on them; a
 * Flow or list sent for "Cambiar" names the booking the customer's new one replaces.
 */
export const BOOKING_REMINDERS_SQL = `
ALTER TABLE booking_settings ADD reminder_template_name text;
ALTER TABLE booking_settings ADD reminder_template_language text;
ALTER TABLE flow_tokens ADD replaces_booking_id text;

CREATE TABLE booking_reminders (
	booking_id text PRIMARY KEY NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
	organization_id text NOT NULL,
	conversation_id text NOT NULL,
	starts_at text NOT NULL,
	due_at integer NOT NULL,
	state text NOT NULL,
	message_id text,
	error_code text,
	attempts integer DEFAULT 0 NOT NULL,
	sent_at text,
	confirmed_at text,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE INDEX booking_reminders_due_idx ON booking_reminders (organization_id, state, due_at);

CREATE TABLE booking_reminder_answers (
	message_id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
	booking_id text NOT NULL,
	action text NOT NULL,
	created_at text NOT NULL
);

CREATE INDEX booking_reminder_answers_conversation_idx ON booking_reminder_answers (conversation_id)`;
