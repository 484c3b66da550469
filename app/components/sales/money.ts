/** "120,00 €": an amount in its currency, as the console writes money. */
export const formatMoney = (value: number, currency: string) =>
  new Intl.NumberFormat("es-ES", { style: "currency", currency }).format(value);

/** "120 €", "59,90 €": whole amounts without cents, for sentences. */
export const formatAmount = (value: number, currency: string) =>
  new Intl.NumberFormat("es-ES", {
    style: "currency",
    currency,
    minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
  }).format(value);

/** The currencies the sale dialog offers (the organization's own is added when missing). */
export const SALE_CURRENCIES = ["EUR", "USD", "MXN", "COP", "ARS", "CLP", "PEN", "GBP"] as const;

/**
 * An amount typed by a person: "120", "59,90" or "59.90" (decimal comma accepted); null when
 * it is not a number greater than 0.
 */
export function parseAmount(text: string): number | null {
  const normalized = text.trim().replace(",", ".");
  if (!/^\d+(\.\d+)?$/.test(normalized)) return null;
  const value = Number(normalized);
  return value > 0 ? value : null;
}
