/**
 * Store migration 8: follow-ups (contract section 17), as D1's migration 0022 adds them for the
 * organizations still there: the rules, what each sent to which wait of a conversation, and the
 * conversation's `follow_up_since` with the partial index the follow-ups job reads; and why the
 * product paused a broadcast by itself.
 */
export const FOLLOW_UPS_SQL = `
CREATE TABLE follow_ups (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	name text NOT NULL,
	enabled integer DEFAULT true NOT NULL,
	no_reply_minutes integer NOT NULL,
	label_ids text NOT NULL,
	stages text NOT NULL,
	template_name text,
	template_language text,
	template_category text,
	template_parameters text,
	text text,
	max_per_conversation integer DEFAULT 1 NOT NULL,
	active_since text NOT NULL,
	created_by text,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE INDEX follow_ups_organization_idx ON follow_ups (organization_id,id);

CREATE TABLE follow_up_sends (
	follow_up_id text NOT NULL,
	conversation_id text NOT NULL,
	organization_id text NOT NULL,
	waited_since text NOT NULL,
	state text NOT NULL,
	message_id text,
	error_code text,
	free integer DEFAULT false NOT NULL,
	sent_at text,
	created_at text NOT NULL,
	PRIMARY KEY(follow_up_id, conversation_id, waited_since),
	FOREIGN KEY (follow_up_id) REFERENCES follow_ups(id) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX follow_up_sends_conversation_idx ON follow_up_sends (conversation_id);

CREATE INDEX follow_up_sends_sending_idx ON follow_up_sends (organization_id) WHERE state = 'sending';

ALTER TABLE conversations ADD follow_up_since text;

ALTER TABLE broadcasts ADD pause_reason text;

CREATE INDEX conversations_follow_up_idx ON conversations (organization_id,follow_up_since) WHERE follow_up_since IS NOT NULL;
`;
