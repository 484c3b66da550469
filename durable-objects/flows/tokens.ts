/**
 * The single-use tokens a booking Flow or a fallback list is sent with (decision 0095). A
 * token names its organization in the clear (worker/flows/token-shape.ts), so the edge knows
 * whose store to ask; only that store holds the random part, so a token names nothing else, and
 * another organization's id with a guessed part finds nothing.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { flowTokens } from "../schema";
import { FLOW_TOKEN_TTL_MS } from "../../contracts/flows";
import { newFlowToken } from "../../worker/flows/token-shape";

export type FlowTokenRow = typeof flowTokens.$inferSelect;

/** Stores a new token for a conversation; answers it. */
export async function issueToken(
  db: OrganizationDb,
  values: Pick<FlowTokenRow, "organizationId" | "conversationId" | "kind"> &
    Partial<Pick<FlowTokenRow, "serviceId" | "offered" | "createdBy" | "replacesBookingId">>,
) {
  const token = newFlowToken(values.organizationId);
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
