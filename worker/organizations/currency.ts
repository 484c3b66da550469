import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organizations } from "../db/global-schema";
import { DEFAULT_CURRENCY } from "../sales/contract";

/**
 * The currency the organization sells in (its sales and ad spend are shown in it): read by the
 * domains that count money, apart from the organization's service, which uses some of them.
 */
export async function organizationCurrency(db: Db, organizationId: string) {
  const row = await db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
    columns: { currency: true },
  });
  return row?.currency ?? DEFAULT_CURRENCY;
}
