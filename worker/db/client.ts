import { getTableColumns, type Table, type TablesRelationalConfig } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as globalSchema from "./global-schema";
import { benchD1 } from "../bench/deployment";
import type { Env } from "../env";

export type Db = ReturnType<typeof buildDb>;

const buildDb = (d1: D1Database) => drizzle(d1, { schema: globalSchema });

/**
 * One drizzle instance per D1 binding for the isolate's life: building one walks the whole
 * schema, which cost more CPU than a webhook's queries (docs/performance.md).
 */
const instances = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = buildDb(d1);
    instances.set(d1, db);
  }
  return db;
}

/** Deployed D1 binds at most 100 parameters a statement; the local one binds thousands. */
const D1_MAX_BOUND_PARAMETERS = 100;

/** A statement that refuses, as deployed D1 does, more parameters than it binds. */
function boundAsDeployed(statement: D1PreparedStatement, query: string): D1PreparedStatement {
  const bind = statement.bind.bind(statement);
  statement.bind = (...values: unknown[]) => {
    if (values.length > D1_MAX_BOUND_PARAMETERS) {
      throw new Error(`${values.length} parameters bound, D1 allows 100: ${query}`);
    }
    return bind(...values);
  };
  return statement;
}

/** D1 refusing, as deployed D1 does, a statement binding more than 100 parameters. */
const boundLikeDeployed = (d1: D1Database): D1Database =>
  new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => boundAsDeployed(target.prepare(query), query);
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });

const wrapped = new WeakMap<D1Database, D1Database>();

type GlobalDbEnv = Pick<
  Env,
  "DB" | "D1_BIND_CHECK" | "BENCH_ROUTES" | "BENCH_D1_LATENCY_MS" | "BENCH_STORE_LATENCY_MS"
>;

/**
 * The global database; every use of D1 goes through here. With `D1_BIND_CHECK=1` (the API
 * tests) it refuses, as deployed D1 does, a statement binding more than 100 parameters, which
 * the local D1 would run; with `BENCH_ROUTES=1` (the bench) its trips are counted and, when
 * asked, delayed as in a deployment (worker/bench/deployment.ts).
 */
export function globalDb(env: GlobalDbEnv): Db {
  if (env.D1_BIND_CHECK !== "1" && env.BENCH_ROUTES !== "1") return createDb(env.DB);
  let d1 = wrapped.get(env.DB);
  if (!d1) {
    d1 = benchD1(env, env.DB);
    if (env.D1_BIND_CHECK === "1") d1 = boundLikeDeployed(d1);
    wrapped.set(env.DB, d1);
  }
  return createDb(d1);
}

/**
 * Rows read with a plain D1 statement (snake_case columns, JSON as text), shaped as drizzle
 * returns them, for the few statements drizzle cannot express.
 */
export function fromRows<T extends Table>(
  table: T,
  rows: Record<string, unknown>[],
): T["$inferSelect"][] {
  const columns = Object.entries(getTableColumns(table));
  return rows.map((row) =>
    Object.fromEntries(
      columns.map(([key, column]) => {
        const value = row[column.name];
        return [
          key,
          value === null || value === undefined ? null : column.mapFromDriverValue(value),
        ];
      }),
    ),
  ) as T["$inferSelect"][];
}

/**
 * Either database, for the few helpers written once for both: paging a table for an export, and
 * the audit trail, which both have (an account's entries in D1, an organization's in its store).
 */
export type AnyDb = BaseSQLiteDatabase<
  "async" | "sync",
  unknown,
  Record<string, unknown>,
  TablesRelationalConfig
>;
