import type { Db } from "../db/client";
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
