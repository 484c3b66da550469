import { createDb, type Db } from "../db/client";
import type { Env } from "../env";

/**
 * What a service needs beyond its arguments: the database, the settings and a way to finish
 * work after the answer has been sent (the request's `waitUntil`).
 */
export interface Deps {
  db: Db;
  env: Env;
  defer: (work: Promise<unknown>) => void;
}

/** Deps outside a request: a cron run or a Durable Object, finishing work with its `waitUntil`. */
export function depsForBackground(env: Env, waitUntil: (p: Promise<unknown>) => void): Deps {
  return { db: createDb(env.DB), env, defer: waitUntil };
}
