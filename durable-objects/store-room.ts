/**
 * A store's room (contract section 15): a Durable Object's SQLite holds 10 GB at most. Past
 * `STORE_FULL_BYTES` the store refuses what grows it by a lot (broadcasts, the app's history
 * import) and keeps the rest for what must never be lost: every customer message Meta
 * delivers. Code outside a store (the Worker) has no store to fill (`storeFull` absent).
 */
import type { StoreDeps } from "../worker/http/deps";
import { AppError } from "../worker/http/errors";

export const STORE_FULL_BYTES = 9 * 1024 ** 3;

export const STORE_FULL_TEXT =
  "Los datos de tu organización ocupan más de 9 GB, cerca de su límite: no se envían difusiones ni se importa historial hasta que haya espacio (la retención borra las conversaciones antiguas).";

/** Whether the organization's store is past its room now. */
export const storeFull = (deps: StoreDeps) => deps.storeFull?.() ?? false;

/** 507 `store_full` when the store is past its room, before anything is changed. */
export function assertStoreRoom(deps: StoreDeps) {
  if (storeFull(deps)) throw new AppError(507, "store_full", STORE_FULL_TEXT);
}
