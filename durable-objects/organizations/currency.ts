import type { StoreDeps } from "../../worker/http/deps";
import { DEFAULT_CURRENCY } from "../../contracts/sales";

/**
 * The currency the organization sells in (its sales and ad spend are shown in it): read by the
 * domains that count money, from the facts its store keeps (decision 0136).
 */
export async function organizationCurrency({ facts }: Pick<StoreDeps, "facts">) {
  const { organization } = await facts();
  return organization?.currency ?? DEFAULT_CURRENCY;
}
