/**
 * The operator's undo for a mistake in an organization's data (decision 0075): its store put
 * back as it was at a moment of the last 30 days, from Cloudflare's point-in-time recovery of a
 * Durable Object's SQLite storage. The store starts again from that moment at once; what the
 * edge keeps (people, connections, the registry) is not touched.
 */
import { AppError, notFound } from "../http/errors";
import type { Env } from "../env";
import { StoreNotRegistered, organizationStore, storeRefused } from "./registry";

/** How far back Cloudflare keeps a store's history. */
export const RESTORE_WINDOW_MS = 30 * 24 * 60 * 60_000;

const unsupported = () =>
  new AppError(
    501,
    "restore_unsupported",
    "Este almacenamiento no permite volver a un momento anterior: solo el de Cloudflare, no el local de workerd.",
  );

/** Where a restore goes: a moment, or a bookmark (the `undo` an earlier restore answered). */
export type RestoreTarget = { at: Date } | { bookmark: string };

/**
 * Restores the organization's store (to a moment its route has checked is of the last 30
 * days); answers the bookmark restored and the one to undo it.
 */
export async function restoreStore(env: Env, organizationId: string, target: RestoreTarget) {
  let store;
  try {
    store = await organizationStore(env, organizationId);
  } catch (error) {
    if (error instanceof StoreNotRegistered) {
      throw notFound(`No hay ninguna organización ${organizationId}.`);
    }
    throw error;
  }
  let restored;
  try {
    restored = await store.restoreTo(
      organizationId,
      "at" in target ? { at: target.at.getTime() } : target,
    );
  } catch (error) {
    if (/point-in-time recovery/.test(String(error))) throw unsupported();
    throw error;
  }
  if (!restored) throw storeRefused(organizationId, "its restore");
  // The restart ends the call it is made in: its error is the restart itself.
  await store.restart(organizationId).catch(() => {});
  return { bookmark: restored.bookmark, undo: restored.undo };
}
