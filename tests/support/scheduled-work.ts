// The store's scheduled work as the tests read it: rows of its `scheduled_work` table
// (durable-objects/scheduler.ts, decision 0099).
import { runInDurableObject } from "cloudflare:test";
import { scheduledWork, type ScheduledWork } from "../../durable-objects/scheduler";

type Store = DurableObjectStub;

/** The row of `key` (`job:capi`, `reply:<conversation>`, ...), or undefined. */
export const workOf = (store: Store, key: string) =>
  runInDurableObject(store, (_, state) => scheduledWork(state.storage.sql, key) ?? undefined);

/** The rows whose key starts with `prefix` (all with ""), by key. */
export const workUnder = (store: Store, prefix: string) =>
  runInDurableObject(
    store,
    (_, state) =>
      Object.fromEntries(
        state.storage.sql
          .exec<{ key: string }>(
            "SELECT key FROM scheduled_work WHERE substr(key, 1, length(?1)) = ?1 ORDER BY key",
            prefix,
          )
          .toArray()
          .map(({ key }) => [key, scheduledWork(state.storage.sql, key)!] as const),
      ) as Record<string, ScheduledWork>,
  );

/** The keys of the rows whose key starts with `prefix`. */
export const keysUnder = async (store: Store, prefix: string) =>
  Object.keys(await workUnder(store, prefix));

/** Makes the rows whose key starts with `prefix` (and no run holds) due now, as if their time had come. */
export const makeDue = (store: Store, prefix: string) =>
  runInDurableObject(store, (_, state) => {
    state.storage.sql.exec(
      `UPDATE scheduled_work SET due_at = ?2
       WHERE substr(key, 1, length(?1)) = ?1 AND lease_until IS NULL`,
      prefix,
      Date.now() - 1,
    );
  });
