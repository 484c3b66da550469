/**
 * Store migration 9: statuses Meta sent before the send's answer recorded the message's wamid,
 * held until it does (as D1's migration 0023 adds them for the organizations still there).
 */
export const HELD_STATUSES_SQL = `
CREATE TABLE held_statuses (
	organization_id text NOT NULL,
	wamid text NOT NULL,
	status text NOT NULL,
	payload text NOT NULL,
	received_at text NOT NULL,
	PRIMARY KEY(organization_id, wamid, status)
);

CREATE INDEX held_statuses_received_idx ON held_statuses (received_at);
`;
