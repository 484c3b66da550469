/**
 * A booking Flow's token names its organization in the clear (`<organization id>.<32 random
 * hex>`, decision 0095): the store makes it, and the edge reads whose store to ask from it.
 */
const TOKEN_SHAPE = /^([0-9a-f-]{36})\.[0-9a-f]{32}$/;

/** The organization a token names (null: not one of ours). */
export const organizationOfToken = (token: string) => TOKEN_SHAPE.exec(token)?.[1] ?? null;

export function newFlowToken(organizationId: string) {
  const random = crypto.getRandomValues(new Uint8Array(16));
  return `${organizationId}.${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
