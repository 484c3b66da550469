/**
 * Store migration 6: broadcasts ("Difusiones", contract section 17), as D1's migration 0020 adds
 * them for the organizations still there: the broadcast, its recipients (one row per
 * conversation, with its state and Meta's error) and the partial index of the messages Meta
 * reported undeliverable (131026), which the audience reads (docs/decisions/0060).
 */
export const BROADCASTS_SQL = `
CREATE TABLE broadcasts (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	name text NOT NULL,
	status text DEFAULT 'draft' NOT NULL,
	template_name text NOT NULL,
	template_language text NOT NULL,
	template_category text NOT NULL,
	template_parameters text NOT NULL,
	audience text NOT NULL,
	send_at text,
	created_by text,
	started_at text,
	completed_at text,
	fell_back_at text,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE INDEX broadcasts_recent_idx ON broadcasts (organization_id,id);

CREATE INDEX broadcasts_due_idx ON broadcasts (status,send_at);

CREATE TABLE broadcast_recipients (
	broadcast_id text NOT NULL,
	conversation_id text NOT NULL,
	organization_id text NOT NULL,
	state text DEFAULT 'pending' NOT NULL,
	wamid text,
	error_code text,
	error text,
	sent_at text,
	delivered_at text,
	read_at text,
	replied_at text,
	cost real,
	created_at text NOT NULL,
	updated_at text NOT NULL,
	PRIMARY KEY(broadcast_id, conversation_id),
	FOREIGN KEY (broadcast_id) REFERENCES broadcasts(id) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX broadcast_recipients_state_idx ON broadcast_recipients (broadcast_id,state);

CREATE INDEX broadcast_recipients_wamid_idx ON broadcast_recipients (organization_id,wamid);

CREATE INDEX broadcast_recipients_conversation_idx ON broadcast_recipients (conversation_id);

CREATE INDEX messages_undeliverable_idx ON messages (conversation_id,created_at) WHERE error_code = '131026';
`;
