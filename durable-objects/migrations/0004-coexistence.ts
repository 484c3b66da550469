/**
 * Store migration 4: the WhatsApp Business app and Meta's own AI on the same number (contract
 * section 16), as D1's migration 0018 adds them for the organizations still there: who holds
 * a conversation and until when the AI is silent, edited, deleted and imported messages, the
 * phone's address book, and the app's history held until it is imported.
 */
export const COEXISTENCE_SQL = `
CREATE TABLE history_imports (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	state text NOT NULL,
	progress integer DEFAULT 0 NOT NULL,
	messages integer DEFAULT 0 NOT NULL,
	error text,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE UNIQUE INDEX history_imports_organization_idx ON history_imports (organization_id);

CREATE TABLE history_pages (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	phase integer NOT NULL,
	chunk_order integer NOT NULL,
	progress integer NOT NULL,
	thread_id text NOT NULL,
	messages text NOT NULL,
	received_at text NOT NULL
);

CREATE INDEX history_pages_order_idx ON history_pages (organization_id,phase,chunk_order,id);

CREATE TABLE phone_contacts (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	phone_number text NOT NULL,
	full_name text,
	first_name text,
	changed_at text NOT NULL,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE UNIQUE INDEX phone_contacts_phone_idx ON phone_contacts (organization_id,phone_number);

ALTER TABLE conversations ADD ai_paused_until text;
ALTER TABLE conversations ADD controlled_by text DEFAULT 'app' NOT NULL;
ALTER TABLE messages ADD edited_at text;
ALTER TABLE messages ADD deleted_at text;
ALTER TABLE messages ADD imported integer DEFAULT false NOT NULL
`;
