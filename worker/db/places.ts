/**
 * Which tables are global and which are an organization's own (contract section 15, decisions
 * 0052, 0075), and the two databases a request or a job gets: `db` for what is global (D1),
 * `orgDb` for the organization's data (its store's SQLite; in the Worker, D1, which holds none
 * since migration 0028). With `DATA_PLACES_CHECK=1` (the API tests) each refuses a statement
 * that names a table of the other place, and both refuse, as deployed D1 does, a statement
 * binding more than 100 parameters (the local D1 binds thousands).
 */
import { createDb, type Db } from "./client";
import type { Env } from "../env";

/** What stays in D1 for every organization: people, sign-in, routing, the store registry. */
export const GLOBAL_TABLES = new Set([
  "users",
  "sessions",
  "rate_limits",
  "organizations",
  "organization_stores",
  // Deleted organizations' ids: what lets a store erase itself (decision 0067).
  "deleted_organizations",
  "memberships",
  "invitations",
  // Who each organization has had: what an account's export and deletion visit (decision 0053).
  "organization_people",
  "whatsapp_connections",
  "meta_connections",
  "oauth_exchanges",
]);

/** What each organization's store holds, and only it (decision 0075). */
export const ORGANIZATION_TABLES = new Set([
  "agents",
  "conversations",
  "conversations_fts",
  "conversation_counts",
  "conversation_labels",
  "messages",
  "messages_fts",
  "quick_replies",
  "ai_calls",
  "ai_usage",
  "knowledge_entries",
  "knowledge_fts",
  "whatsapp_templates",
  "tracking_sessions",
  "conversions",
  "conversion_suggestions",
  "ad_spend",
  "ad_spend_syncs",
  "labels",
  "mentions",
  "message_costs",
  "message_cost_syncs",
  "phone_contacts",
  "history_imports",
  "history_pages",
  "marketing_consents",
  "broadcasts",
  "broadcast_recipients",
  "follow_ups",
  "follow_up_sends",
  "held_statuses",
  // Bookings (contract section 18): worker/bookings/schema.ts.
  "booking_settings",
  "services",
  "bookings",
  "away_message_sends",
]);

/*
 * `audit_events` is in both: an entry about an account alone (a sign-up, a failed login) is in
 * D1; an organization's entries are its data, in its store. Whoever records an entry picks.
 */

/** The tables a statement names after FROM, JOIN, INTO or UPDATE, quoted or not. */
const NAMED_TABLE = /\b(?:from|join|into|update)\s+["`]?([a-z_][a-z0-9_]*)/gi;

export class DataPlaceError extends Error {}

function refusing(d1: D1Database, place: "global" | "organization"): D1Database {
  const other = place === "global" ? ORGANIZATION_TABLES : GLOBAL_TABLES;
  const check = (query: string) => {
    for (const [, table] of query.matchAll(NAMED_TABLE)) {
      if (other.has(table!.toLowerCase())) {
        throw new DataPlaceError(`${table} reached through the ${place} database: ${query}`);
      }
    }
  };
  return new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          check(query);
          return boundWithinD1(target.prepare(query), query);
        };
      }
      if (property === "exec") {
        return (query: string) => {
          check(query);
          return target.exec(query);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Deployed D1 binds at most 100 parameters a statement; the local one binds thousands. */
const D1_MAX_BOUND_PARAMETERS = 100;

/** A statement that refuses, as deployed D1 does, more parameters than it binds. */
function boundWithinD1(statement: D1PreparedStatement, query: string): D1PreparedStatement {
  const bind = statement.bind.bind(statement);
  statement.bind = (...values: unknown[]) => {
    if (values.length > D1_MAX_BOUND_PARAMETERS) {
      throw new DataPlaceError(`${values.length} parameters bound, D1 allows 100: ${query}`);
    }
    return bind(...values);
  };
  return statement;
}

const checked = new WeakMap<D1Database, { db: Db; orgDb: Db }>();

/** The global database and the organization's, for code running in the Worker. */
export function databasesOf(env: Env): { db: Db; orgDb: Db } {
  if (env.DATA_PLACES_CHECK !== "1") {
    const db = createDb(env.DB);
    return { db, orgDb: db };
  }
  let pair = checked.get(env.DB);
  if (!pair) {
    pair = {
      db: createDb(refusing(env.DB, "global")),
      orgDb: createDb(refusing(env.DB, "organization")),
    };
    checked.set(env.DB, pair);
  }
  return pair;
}
