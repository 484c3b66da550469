/**
 * The bench's simulated deployment (issue #49, docs/performance.md "A simulated deployment").
 * Locally D1 and every store answer in the same process, so a trip costs next to nothing; in a
 * deployment each D1 round trip costs tens of milliseconds and each call to a store a few. With
 * `BENCH_ROUTES=1` and `BENCH_D1_LATENCY_MS` / `BENCH_STORE_LATENCY_MS` set (only scripts/bench
 * sets them), every D1 round trip and every call to a store waits that long before it is made,
 * so the bench's latencies include them exactly as often as the code makes them. With
 * `BENCH_ROUTES=1` the trips are also counted, per isolate, for the bench's round-trip table.
 */
import type { Env } from "../env";

type BenchEnv = Pick<Env, "BENCH_ROUTES" | "BENCH_D1_LATENCY_MS" | "BENCH_STORE_LATENCY_MS">;

/** Trips counted in this isolate since the last reset (`/__bench/round-trips`). */
const trips = { d1: 0, store: 0 };
/** Which isolate counted them: the Worker and a store may share one, and must not add twice. */
let isolate: string | undefined;

export function roundTrips() {
  isolate ??= crypto.randomUUID();
  return { isolate, ...trips };
}

export function resetRoundTrips() {
  trips.d1 = 0;
  trips.store = 0;
}

const benching = (env: BenchEnv) => env.BENCH_ROUTES === "1";

const pause = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

const STATEMENT_CALLS = ["first", "all", "run", "raw"] as const;

/** A statement whose every execution is one counted trip (its own methods, so `batch` takes it). */
function countedStatement(statement: D1PreparedStatement, ms: number): D1PreparedStatement {
  const target = statement as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const call of STATEMENT_CALLS) {
    const run = target[call]!.bind(statement);
    target[call] = async (...args) => {
      trips.d1 += 1;
      await pause(ms);
      return run(...args);
    };
  }
  const bind = statement.bind.bind(statement);
  statement.bind = (...values: unknown[]) => countedStatement(bind(...values), ms);
  return statement;
}

/** D1 as the bench sees it: every statement, and every batch, one trip. Unchanged otherwise. */
export function benchD1(env: BenchEnv, d1: D1Database): D1Database {
  if (!benching(env)) return d1;
  const ms = Number(env.BENCH_D1_LATENCY_MS ?? 0);
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => countedStatement(target.prepare(query), ms);
      }
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          trips.d1 += 1;
          await pause(ms);
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A store's stub as the bench sees it: every call one trip. Unchanged otherwise. */
export function benchStore<T extends object>(env: BenchEnv, stub: T): T {
  if (!benching(env)) return stub;
  const ms = Number(env.BENCH_STORE_LATENCY_MS ?? 0);
  return new Proxy(stub, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== "function") return value;
      // Called on the stub by name: an RPC method's own `apply` would be a remote call.
      const stub = target as Record<PropertyKey, (...args: unknown[]) => unknown>;
      return async (...args: unknown[]) => {
        trips.store += 1;
        await pause(ms);
        return stub[property]!(...args);
      };
    },
  });
}
