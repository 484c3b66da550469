/**
 * Store migration 19 (contract section 15, decision 0137): each conversation's model calls in
 * its current hour, counted in the store rather than in D1's `rate_limits`, so an AI answer
 * makes no D1 trip for it. One row per conversation, gone with it.
 */
export const CONVERSATION_AI_CALLS_SQL = `
CREATE TABLE conversation_ai_calls (
	conversation_id text PRIMARY KEY NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
	organization_id text NOT NULL,
	count integer NOT NULL,
	reset_at integer NOT NULL
);
`;
