/**
 * What an organization's store needs of its organization's global facts (contract section 15,
 * decision 0136): its row in D1 (name, currency, time zone, quiet hours, budget, flags), its
 * WhatsApp connection (the number and its sealed token) and its pixel (Meta connection, with its
 * sealed token). The store keeps them while their `facts_version` stays the same: D1's triggers
 * move it at every change of any of those rows (migrations 0029, 0030), and the edge reads it in its one trip and hands it to the store with each request and
 * delivery. Read here only, in one D1 batch.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../worker/db/client";
import { metaConnections, organizations, whatsappConnections } from "../worker/db/global-schema";

export interface OrganizationFacts {
  /** `organizations.facts_version` when these were read. */
  version: number;
  /** Null when the organization is gone. */
  organization: typeof organizations.$inferSelect | null;
  /** Null when no number is connected. */
  connection: typeof whatsappConnections.$inferSelect | null;
  /** Null when no pixel is connected. */
  pixel: typeof metaConnections.$inferSelect | null;
}

/** The organization's facts as D1 holds them now: one round trip. */
export async function readOrganizationFacts(
  db: Db,
  organizationId: string,
): Promise<OrganizationFacts> {
  const [[organization], [connection], [pixel]] = await db.batch([
    db.select().from(organizations).where(eq(organizations.id, organizationId)).limit(1),
    db
      .select()
      .from(whatsappConnections)
      .where(eq(whatsappConnections.organizationId, organizationId))
      .limit(1),
    db
      .select()
      .from(metaConnections)
      .where(eq(metaConnections.organizationId, organizationId))
      .limit(1),
  ]);
  return {
    version: organization?.factsVersion ?? 0,
    organization: organization ?? null,
    connection: connection ?? null,
    pixel: pixel ?? null,
  };
}
