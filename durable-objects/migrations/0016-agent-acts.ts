/**
 * Store migration 16 (contract sections 4 and 18, decision 0109): what an agent may do beyond
 * answering. `can_book` offers it the booking tools, `can_charge` (for the payment link, a
 * later tool) lets it charge; both off for every agent, old and new, until a manager sets them.
 */
export const AGENT_ACTS_SQL = `
ALTER TABLE agents ADD can_book integer DEFAULT false NOT NULL;
ALTER TABLE agents ADD can_charge integer DEFAULT false NOT NULL;
`;
