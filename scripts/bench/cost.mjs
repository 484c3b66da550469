// What a million stored messages cost at Cloudflare's published prices (issue #49), from what
// the bench measured of single-message deliveries. Prices in USD, as published on
// developers.cloudflare.com (Workers, Durable Objects and SQLite-backed storage pricing pages),
// read on 2026-11-29; the plans' included amounts are left out (the marginal cost).
export const PRICES = {
  readOn: "2026-11-29",
  workerRequestsPerMillion: 0.3,
  workerCpuPerMillionMs: 0.02,
  storeRequestsPerMillion: 0.15,
  storeDurationPerMillionGbS: 12.5,
  rowsWrittenPerMillion: 1.0,
  storagePerGbMonth: 0.2,
};

/** A store's memory as Durable Objects bill it: 128 MB, whatever it uses. */
const STORE_GB = 0.125;

/**
 * @param {{ cpuMsPerDelivery: number, storeCallsPerDelivery: number, storeMsPerDelivery: number,
 *   rowsPerMessage: number, bytesPerMessage: number | null }} m
 */
export function costPerMillionMessages(m) {
  const million = 1_000_000;
  const parts = {
    workerRequests: PRICES.workerRequestsPerMillion,
    workerCpu: m.cpuMsPerDelivery * PRICES.workerCpuPerMillionMs,
    storeRequests: m.storeCallsPerDelivery * PRICES.storeRequestsPerMillion,
    // The store is billed while it runs: its time per delivery (at least its CPU) at 128 MB.
    storeDuration:
      ((m.storeMsPerDelivery * million) / 1000) *
      STORE_GB *
      (PRICES.storeDurationPerMillionGbS / million),
    rowsWritten: m.rowsPerMessage * PRICES.rowsWrittenPerMillion,
    storagePerMonth:
      m.bytesPerMessage === null
        ? null
        : ((m.bytesPerMessage * million) / 2 ** 30) * PRICES.storagePerGbMonth,
  };
  const once = Object.entries(parts)
    .filter(([k]) => k !== "storagePerMonth")
    .reduce((sum, [, v]) => sum + (v ?? 0), 0);
  return { ...parts, once };
}
