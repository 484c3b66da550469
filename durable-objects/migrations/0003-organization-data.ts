/**
 * Store migration 3: every table of an organization's data (contract section 15, decision
 * 0054), as D1 has them after its migration 0014, with their indexes, search indexes and
 * triggers. What differs from D1: no foreign key to a global table (organizations and users
 * stay in D1; erasing the store erases the organization, and deleting an account clears what
 * named the person itself), and the count trigger does not ask whether the organization exists.
 * `tests/api/store-schema.test.ts` checks that each table has D1's columns and indexes.
 */
export const ORGANIZATION_DATA_SQL = `
CREATE TABLE agents (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	name text NOT NULL,
	model text DEFAULT 'google/gemini-2.5-flash' NOT NULL,
	temperature real DEFAULT 0.7 NOT NULL,
	system_prompt text NOT NULL,
	is_active integer DEFAULT true NOT NULL,
	whatsapp_status text DEFAULT 'disconnected' NOT NULL,
	whatsapp_qr text,
	created_at text NOT NULL,
	updated_at text NOT NULL, can_mark_leads integer DEFAULT true NOT NULL, mode text DEFAULT 'auto' NOT NULL, knowledge_ids text
);

CREATE INDEX agents_organization_idx ON agents (organization_id,created_at);

CREATE TABLE ai_calls (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	agent_id text,
	conversation_id text,
	model text NOT NULL,
	prompt_tokens integer,
	completion_tokens integer,
	latency_ms integer NOT NULL,
	outcome text NOT NULL,
	error text,
	created_at text NOT NULL,
	FOREIGN KEY (agent_id) REFERENCES agents(id) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX ai_calls_agent_idx ON ai_calls (organization_id,agent_id);

CREATE INDEX ai_calls_conversation_idx ON ai_calls (conversation_id);

CREATE TABLE audit_events (
	id text PRIMARY KEY NOT NULL,
	organization_id text,
	user_id text,
	action text NOT NULL,
	target text,
	metadata text,
	ip text,
	created_at text NOT NULL
);

CREATE INDEX audit_events_organization_idx ON audit_events (organization_id,created_at);

CREATE INDEX audit_events_user_idx ON audit_events (user_id,created_at);

CREATE TABLE conversations (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	platform text DEFAULT 'whatsapp' NOT NULL,
	wa_user_id text,
	contact_name text,
	status text DEFAULT 'open' NOT NULL,
	priority text DEFAULT 'medium' NOT NULL,
	unread_count integer DEFAULT 0 NOT NULL,
	agent_id text,
	last_message_at text NOT NULL,
	last_message_preview text,
	last_inbound_at text,
	fbclid text,
	ctwa_clid text,
	ad_id text,
	ad_headline text,
	tracking_session_id text,
	ai_error text,
	created_at text NOT NULL,
	updated_at text NOT NULL, stage text DEFAULT 'new' NOT NULL, ai_draft text, phone_number text, username text, assignee_id text, labels text,
	FOREIGN KEY (agent_id) REFERENCES agents(id) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (tracking_session_id) REFERENCES tracking_sessions(id) ON UPDATE no action ON DELETE set null
);

CREATE INDEX conversations_recent_idx ON conversations (organization_id,last_message_at);

CREATE INDEX conversations_status_idx ON conversations (organization_id,status,last_message_at);

CREATE INDEX conversations_priority_idx ON conversations (organization_id,priority,last_message_at);

CREATE INDEX conversations_agent_idx ON conversations (organization_id,agent_id,last_message_at);

CREATE INDEX conversations_last_message_idx ON conversations (last_message_at);

CREATE TABLE conversions (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	tracking_session_id text,
	conversation_id text,
	event_name text NOT NULL,
	event_id text NOT NULL,
	phone_number text,
	tracking_params text,
	source text,
	campaign text,
	conversion_value real,
	currency text,
	custom_data text,
	ctwa_clid text,
	event_time text NOT NULL,
	capi_status text DEFAULT 'not_sent' NOT NULL,
	capi_result text,
	capi_attempts integer DEFAULT 0 NOT NULL,
	capi_next_attempt_at text,
	created_at text NOT NULL, client_ip text, client_user_agent text, source_url text, dedupe_key text,
	FOREIGN KEY (tracking_session_id) REFERENCES tracking_sessions(id) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE set null
);

CREATE INDEX conversions_organization_time_idx ON conversions (organization_id,event_time);

CREATE INDEX conversions_organization_event_idx ON conversions (organization_id,event_name,event_time);

CREATE INDEX conversions_capi_queue_idx ON conversions (capi_status,capi_next_attempt_at);

CREATE TABLE messages (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	conversation_id text NOT NULL,
	wamid text,
	type text DEFAULT 'text' NOT NULL,
	content text NOT NULL,
	direction text NOT NULL,
	sender_type text NOT NULL,
	sender_user_id text,
	status text NOT NULL,
	error text,
	error_code text,
	media_id text,
	media_mime_type text,
	referral text,
	reactions text,
	sent_at text,
	created_at text NOT NULL, transcript text, transcript_status text, transcript_error text, ai_sources text, suggested_by_ai integer DEFAULT false NOT NULL, billable integer, pricing_category text, pricing_type text, mentions text, transcript_claimed_at integer,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade
);

CREATE UNIQUE INDEX messages_wamid_idx ON messages (organization_id,wamid);

CREATE INDEX messages_conversation_idx ON messages (conversation_id,created_at,id);

CREATE TABLE tracking_sessions (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	tracking_params text NOT NULL,
	fbclid text,
	utm_source text,
	utm_campaign text,
	ref text,
	user_agent text,
	referrer text,
	landing_page text,
	client_ip text,
	phone_number text,
	created_at text NOT NULL,
	last_activity_at text NOT NULL
);

CREATE INDEX tracking_sessions_organization_idx ON tracking_sessions (organization_id,created_at);

CREATE UNIQUE INDEX tracking_sessions_ref_idx ON tracking_sessions (organization_id,ref);

CREATE INDEX tracking_sessions_phone_idx ON tracking_sessions (organization_id,phone_number);

CREATE INDEX tracking_sessions_activity_idx ON tracking_sessions (last_activity_at);

CREATE TABLE whatsapp_templates (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	meta_template_id text,
	name text NOT NULL,
	language text NOT NULL,
	category text NOT NULL,
	status text NOT NULL,
	components text NOT NULL,
	updated_at text NOT NULL
);

CREATE UNIQUE INDEX whatsapp_templates_name_idx ON whatsapp_templates (organization_id,name,language);

CREATE INDEX whatsapp_templates_meta_idx ON whatsapp_templates (meta_template_id);

CREATE INDEX conversations_session_idx ON conversations (tracking_session_id);

CREATE INDEX conversions_conversation_idx ON conversions (conversation_id);

CREATE INDEX conversions_session_idx ON conversions (tracking_session_id);

CREATE TABLE conversation_counts (
	organization_id text NOT NULL,
	tally text NOT NULL,
	n integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(organization_id, tally)
);

CREATE TRIGGER conversation_counts_insert AFTER INSERT ON conversations BEGIN
  INSERT INTO conversation_counts (organization_id, tally, n)
  SELECT new.organization_id, tally, 1 FROM (
    SELECT 'status:' || new.status AS tally
    UNION ALL SELECT 'priority:' || new.priority
    UNION ALL SELECT 'unassigned' WHERE new.agent_id IS NULL
    UNION ALL SELECT 'unread' WHERE new.unread_count > 0
  ) WHERE true
  ON CONFLICT (organization_id, tally) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER conversation_counts_delete AFTER DELETE ON conversations BEGIN
  UPDATE conversation_counts SET n = n - 1
  WHERE organization_id = old.organization_id AND tally IN (
    'status:' || old.status,
    'priority:' || old.priority,
    CASE WHEN old.agent_id IS NULL THEN 'unassigned' END,
    CASE WHEN old.unread_count > 0 THEN 'unread' END
  );
END;

CREATE TRIGGER conversation_counts_update AFTER UPDATE OF status, priority, agent_id, unread_count ON conversations
WHEN old.status IS NOT new.status OR old.priority IS NOT new.priority
  OR (old.agent_id IS NULL) IS NOT (new.agent_id IS NULL)
  OR (old.unread_count > 0) IS NOT (new.unread_count > 0) BEGIN
  UPDATE conversation_counts SET n = n - 1
  WHERE organization_id = old.organization_id AND tally IN (
    CASE WHEN old.status IS NOT new.status THEN 'status:' || old.status END,
    CASE WHEN old.priority IS NOT new.priority THEN 'priority:' || old.priority END,
    CASE WHEN old.agent_id IS NULL AND new.agent_id IS NOT NULL THEN 'unassigned' END,
    CASE WHEN old.unread_count > 0 AND new.unread_count <= 0 THEN 'unread' END
  );
  INSERT INTO conversation_counts (organization_id, tally, n)
  SELECT new.organization_id, tally, 1 FROM (
    SELECT 'status:' || new.status AS tally WHERE old.status IS NOT new.status
    UNION ALL SELECT 'priority:' || new.priority WHERE old.priority IS NOT new.priority
    UNION ALL SELECT 'unassigned' WHERE new.agent_id IS NULL AND old.agent_id IS NOT NULL
    UNION ALL SELECT 'unread' WHERE new.unread_count > 0 AND old.unread_count <= 0
  ) WHERE true
  ON CONFLICT (organization_id, tally) DO UPDATE SET n = n + 1;
END;

CREATE TABLE ad_spend (
	organization_id text NOT NULL,
	ad_id text NOT NULL,
	day text NOT NULL,
	ad_name text,
	spend real NOT NULL,
	currency text,
	fetched_at text NOT NULL,
	PRIMARY KEY(organization_id, ad_id, day)
);

CREATE TABLE ad_spend_syncs (
	organization_id text NOT NULL,
	day text NOT NULL,
	fetched_at text NOT NULL,
	PRIMARY KEY(organization_id, day)
);

CREATE TABLE conversion_suggestions (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	conversation_id text NOT NULL,
	wamid text NOT NULL,
	event_name text NOT NULL,
	value real,
	currency text,
	status text DEFAULT 'pending' NOT NULL,
	conversion_id text,
	detected_at text NOT NULL,
	created_at text NOT NULL,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (conversion_id) REFERENCES conversions(id) ON UPDATE no action ON DELETE set null
);

CREATE UNIQUE INDEX conversion_suggestions_wamid_idx ON conversion_suggestions (organization_id,wamid,event_name);

CREATE INDEX conversion_suggestions_conversation_idx ON conversion_suggestions (conversation_id,status);

CREATE UNIQUE INDEX conversions_ctwa_event_idx ON conversions (organization_id,ctwa_clid,event_name) WHERE ctwa_clid IS NOT NULL AND event_name <> 'purchase';

CREATE UNIQUE INDEX conversions_dedupe_idx ON conversions (organization_id,dedupe_key) WHERE dedupe_key IS NOT NULL;

CREATE INDEX conversations_stage_idx ON conversations (organization_id,stage,last_message_at);

CREATE INDEX conversations_ad_idx ON conversations (organization_id,ad_id);

CREATE TABLE ai_usage (
	organization_id text NOT NULL,
	month text NOT NULL,
	tokens_used integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(organization_id, month)
);

CREATE TABLE knowledge_entries (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	title text NOT NULL,
	content text NOT NULL,
	file_name text,
	created_by text,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE INDEX knowledge_entries_organization_idx ON knowledge_entries (organization_id,updated_at);

CREATE VIRTUAL TABLE knowledge_fts USING fts5(organization_id, title, content, content='knowledge_entries', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER knowledge_fts_insert AFTER INSERT ON knowledge_entries BEGIN
  INSERT INTO knowledge_fts(rowid, organization_id, title, content) VALUES (new.rowid, new.organization_id, new.title, new.content);
END;

CREATE TRIGGER knowledge_fts_delete AFTER DELETE ON knowledge_entries BEGIN
  INSERT INTO knowledge_fts(knowledge_fts, rowid, organization_id, title, content) VALUES ('delete', old.rowid, old.organization_id, old.title, old.content);
END;

CREATE TRIGGER knowledge_fts_update AFTER UPDATE OF title, content ON knowledge_entries BEGIN
  INSERT INTO knowledge_fts(knowledge_fts, rowid, organization_id, title, content) VALUES ('delete', old.rowid, old.organization_id, old.title, old.content);
  INSERT INTO knowledge_fts(rowid, organization_id, title, content) VALUES (new.rowid, new.organization_id, new.title, new.content);
END;

CREATE VIRTUAL TABLE messages_fts USING fts5(content, transcript, content='messages', content_rowid='rowid', tokenize='trigram');

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content, transcript) VALUES (new.rowid, new.content, new.transcript);
END;

CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, transcript) VALUES ('delete', old.rowid, old.content, old.transcript);
END;

CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, transcript ON messages WHEN old.content IS NOT new.content OR old.transcript IS NOT new.transcript BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, transcript) VALUES ('delete', old.rowid, old.content, old.transcript);
  INSERT INTO messages_fts(rowid, content, transcript) VALUES (new.rowid, new.content, new.transcript);
END;

CREATE INDEX messages_pending_transcript_idx ON messages (created_at) WHERE transcript_status = 'pending';

CREATE UNIQUE INDEX conversations_customer_idx ON conversations (organization_id,phone_number);

CREATE UNIQUE INDEX conversations_user_idx ON conversations (organization_id,wa_user_id);

CREATE VIRTUAL TABLE conversations_fts USING fts5(contact_name, phone_number, username, content='conversations', content_rowid='rowid', tokenize='trigram');

CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN
  INSERT INTO conversations_fts(rowid, contact_name, phone_number, username) VALUES (new.rowid, new.contact_name, new.phone_number, new.username);
END;

CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN
  INSERT INTO conversations_fts(conversations_fts, rowid, contact_name, phone_number, username) VALUES ('delete', old.rowid, old.contact_name, old.phone_number, old.username);
END;

CREATE TRIGGER conversations_fts_update AFTER UPDATE OF contact_name, phone_number, username ON conversations WHEN old.contact_name IS NOT new.contact_name OR old.phone_number IS NOT new.phone_number OR old.username IS NOT new.username BEGIN
  INSERT INTO conversations_fts(conversations_fts, rowid, contact_name, phone_number, username) VALUES ('delete', old.rowid, old.contact_name, old.phone_number, old.username);
  INSERT INTO conversations_fts(rowid, contact_name, phone_number, username) VALUES (new.rowid, new.contact_name, new.phone_number, new.username);
END;

CREATE TABLE message_costs (
	organization_id text NOT NULL,
	day text NOT NULL,
	category text NOT NULL,
	country text NOT NULL,
	volume integer NOT NULL,
	cost real NOT NULL,
	fetched_at text NOT NULL,
	PRIMARY KEY(organization_id, day, category, country)
);

CREATE TABLE conversation_labels (
	conversation_id text NOT NULL,
	label_id text NOT NULL,
	organization_id text NOT NULL,
	PRIMARY KEY(conversation_id, label_id),
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (label_id) REFERENCES labels(id) ON UPDATE no action ON DELETE cascade
);

CREATE TABLE labels (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	name text NOT NULL,
	color text NOT NULL,
	created_at text NOT NULL,
	updated_at text NOT NULL
);

CREATE UNIQUE INDEX labels_name_idx ON labels (organization_id,name);

CREATE TABLE mentions (
	id text PRIMARY KEY NOT NULL,
	organization_id text NOT NULL,
	user_id text NOT NULL,
	conversation_id text NOT NULL,
	note_id text NOT NULL,
	author_id text,
	read_at text,
	created_at text NOT NULL,
	FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (note_id) REFERENCES messages(id) ON UPDATE no action ON DELETE cascade
);

CREATE INDEX mentions_user_idx ON mentions (user_id,read_at,created_at);

CREATE INDEX mentions_conversation_idx ON mentions (conversation_id);

CREATE INDEX mentions_note_idx ON mentions (note_id);

CREATE INDEX conversations_assignee_idx ON conversations (organization_id,assignee_id,last_message_at);

CREATE TABLE message_cost_syncs (
	organization_id text NOT NULL,
	day text NOT NULL,
	fetched_at text NOT NULL,
	PRIMARY KEY(organization_id, day)
);

CREATE INDEX conversation_labels_label_idx ON conversation_labels (organization_id,label_id,conversation_id);
`;
