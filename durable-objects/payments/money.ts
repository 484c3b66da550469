/**
 * Amounts of payment links: decimal strings ("25.50") in a currency, turned into the currency's
 * minor units as Stripe wants them and read out as the thread says them ("25,50 EUR").
 */

/** How many decimals a currency has (ISO 4217 as the runtime knows it: EUR 2, JPY 0, CLP 0). */
export function currencyDecimals(currency: string) {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits!;
  } catch {
    return 2;
  }
}

/** Whether the amount has no more decimals than its currency allows ("10.5" in JPY has). */
export function fitsCurrency(amount: string, currency: string) {
  const decimals = amount.split(".")[1]?.replace(/0+$/, "") ?? "";
  return decimals.length <= currencyDecimals(currency);
}

/** The amount in the currency's minor units, without a float on the way ("25.5" EUR → 2550). */
export function toMinorUnits(amount: string, currency: string) {
  const decimals = currencyDecimals(currency);
  const [whole = "0", fraction = ""] = amount.split(".");
  const padded = fraction.padEnd(decimals, "0").slice(0, decimals);
  return Number(`${whole}${padded}`);
}

/** Two amounts are the same money ("25" and "25.00"). */
export const sameAmount = (a: string, b: string) => Number(a) === Number(b);

/** "25,00 EUR": as the thread and the notes say an amount. */
export function spokenAmount(amount: string, currency: string) {
  const decimals = currencyDecimals(currency);
  const number = new Intl.NumberFormat("es-ES", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: true,
  }).format(Number(amount));
  return `${number} ${currency}`;
}
