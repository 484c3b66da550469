/**
 * The single-use tokens a booking Flow or a fallback list is sent with (decision 0095). A
 * token names its organization in the clear (`<organization id>.<32 random hex>`), so the edge
 * knows whose store to ask; only that store holds the random part, so a token names nothing
 * else, and another organization's id with a guessed part finds nothing.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { OrganizationDb } from "../db/client";
import { flowTokens } from "../../durable-objects/schema";
import { FLOW_TOKEN_TTL_MS } from "../../contracts/flows";

export type FlowTokenRow = typeof flowTokens.$inferSelect;

const TOKEN_SHAPE = /^([0-9a-f-]{36})\.[0-9a-f]{32}$/;

/** The organization a token names (null: not one of ours). */
export const organizationOfToken = (token: string) => TOKEN_SHAPE.exec(token)?.[1] ?? null;

function newToken(organizationId: string) {
  const random = crypto.getRandomValues(new Uint8Array(16));
  return `${organizationId}.${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Stores a new token for a conversation; answers it. */
export async function issueToken(
  db: OrganizationDb,
  values: Pick<FlowTokenRow, "organizationId" | "conversationId" | "kind"> &
    Partial<Pick<FlowTokenRow, "serviceId" | "offered" | "createdBy" | "replacesBookingId">>,
) {
  const token = newToken(values.organizationId);
  await db.insert(flowTokens).values({ ...values, token, createdAt: new Date().toISOString() });
  return token;
}

/** A token of the organization still valid: known, not used, younger than 24 h. */
export async function liveToken(
  db: OrganizationDb,
  organizationId: string,
  token: string,
  kind: FlowTokenRow["kind"],
): Promise<FlowTokenRow | null> {
  const [row] = await db
    .select()
    .from(flowTokens)
    .where(
      and(
        eq(flowTokens.token, token),
        eq(flowTokens.organizationId, organizationId),
        eq(flowTokens.kind, kind),
        isNull(flowTokens.usedAt),
      ),
    );
  if (!row || Date.now() - Date.parse(row.createdAt) > FLOW_TOKEN_TTL_MS) return null;
  return row;
}

/** Records what the customer chose so far on a token still unused. */
export async function rememberChoice(
  db: OrganizationDb,
  token: string,
  choice: Partial<Pick<FlowTokenRow, "serviceId" | "day" | "slot">>,
) {
  await db
    .update(flowTokens)
    .set(choice)
    .where(and(eq(flowTokens.token, token), isNull(flowTokens.usedAt)));
}

/** The token booked: it is used, once (false: it was already). */
export async function markUsed(db: OrganizationDb, token: string, bookingId: string) {
  const done = await db
    .update(flowTokens)
    .set({ usedAt: new Date().toISOString(), bookingId })
    .where(and(eq(flowTokens.token, token), isNull(flowTokens.usedAt)))
    .returning({ token: flowTokens.token });
  return done.length > 0;
}
