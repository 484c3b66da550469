/**
 * Store migration 7: what a broadcast being sent keeps (contract section 17, decision 0061), as
 * D1's migration 0021 adds it for the organizations still there: its audience read once, why
 * and until when it waits, that its results changed, and the index the daily messaging limit
 * counts recipients by.
 */
export const BROADCAST_SENDING_SQL = `
ALTER TABLE broadcasts ADD audience_read_at text;
ALTER TABLE broadcasts ADD wait_reason text;
ALTER TABLE broadcasts ADD wait_until text;
ALTER TABLE broadcasts ADD stats_changed_at text;
CREATE INDEX broadcast_recipients_sent_idx ON broadcast_recipients (organization_id,sent_at);
`;
