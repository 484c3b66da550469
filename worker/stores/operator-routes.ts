import { asc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod/mini";
import { organizations, organizationStores } from "../db/global-schema";
import type { AppContext } from "../http/context";
import { notFound, unauthorized } from "../http/errors";
import { addressKey } from "../http/address-key";
import { assertUnderLimit, countHit, type Limit } from "../http/rate-limit";
import type { StoreListing } from "./contract";
import { servedByItsStore } from "./registry";
import { RESTORE_WINDOW_MS, restoreStore, type RestoreTarget } from "./restore";
import { jsonBody } from "../http/validate";

/** A moment of the last 30 days, or a bookmark (an earlier restore's undo): one of the two. */
const restoreInput = z.pipe(
  z
    .object({
      at: z.optional(
        z
          .pipe(
            z.iso.datetime({ offset: true, error: "Escribe el momento en ISO 8601, con su zona." }),
            z.transform((at) => new Date(at)),
          )
          .check(
            z.refine(
              (at) => at.getTime() <= Date.now() && Date.now() - at.getTime() <= RESTORE_WINDOW_MS,
              "El momento debe estar dentro de los últimos 30 días.",
            ),
          ),
      ),
      bookmark: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    })
    .check(
      z.refine((input) => (input.at === undefined) !== (input.bookmark === undefined), {
        message: "Indica un momento o un marcador, uno de los dos.",
        path: ["at"],
      }),
    ),
  z.transform((input): RestoreTarget =>
    input.at ? { at: input.at } : { bookmark: input.bookmark! },
  ),
);
/** Equal secrets, compared in constant time (their digests: the lengths may differ). */
async function sameSecret(given: string, expected: string) {
  const digest = (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** The shortest operator token the routes accept. */
export const OPERATOR_TOKEN_MIN_LENGTH = 32;
/** `.dev.vars.example`'s placeholder: public, so never a token (`npm run dev` makes a random one). */
export const EXAMPLE_OPERATOR_TOKEN = "local-operator-token-change-me";
/** Refused operator calls an address may make before it waits (a token is not guessed here). */
const OPERATOR_FAILURES: Limit = { max: 10, windowSeconds: 15 * 60 };

/** Each isolate says once why it refuses the configured token. */
let refusalLogged = false;

/**
 * The operator's token when it is one: unset, or too short or the example's (refused, with a
 * log line the first time an isolate meets it), the routes do not exist.
 */
function operatorToken(token: string | undefined) {
  if (!token) return null;
  const weak = token.length < OPERATOR_TOKEN_MIN_LENGTH || token === EXAMPLE_OPERATOR_TOKEN;
  if (!weak) return token;
  if (!refusalLogged) {
    refusalLogged = true;
    console.error(
      `OPERATOR_TOKEN refused: it must have ${OPERATOR_TOKEN_MIN_LENGTH} characters or more and not be the example's; the operator's routes are off until it is replaced (openssl rand -hex 32).`,
    );
  }
  return null;
}

/**
 * `/api/v1/operator/*`: the operator's own calls (`npm run stores`), authorized by the
 * `OPERATOR_TOKEN` secret. A deployment without one, or with a weak one, does not have them:
 * 404. Refused calls are counted per address (10 in 15 minutes, then 429) and logged.
 */
export const operatorRoutes = new Hono<AppContext>()
  .use(async (c, next) => {
    const expected = operatorToken(c.env.OPERATOR_TOKEN);
    if (!expected) throw notFound("Ruta no encontrada.");
    const address = addressKey(c.req.header("CF-Connecting-IP") ?? null);
    const failures = `operator:ip:${address}`;
    await assertUnderLimit(c.var.db, failures, OPERATOR_FAILURES);
    const given = c.req.header("Authorization")?.match(/^Bearer (.+)$/)?.[1] ?? "";
    if (!(await sameSecret(given, expected))) {
      await countHit(c.var.db, failures, OPERATOR_FAILURES);
      console.warn("operator call refused", address, c.req.method, c.req.path);
      throw unauthorized("Token de operador no válido.");
    }
    await next();
  })
  /** Every organization and its store, as the registry knows it; `served`: this release serves it. */
  .get("/stores", async (c) => {
    const rows = await c.var.db
      .select({
        organization_id: organizations.id,
        name: organizations.name,
        state: organizationStores.state,
        schema_version: organizationStores.schemaVersion,
        bytes: organizationStores.bytes,
        messages: organizationStores.messages,
      })
      .from(organizationStores)
      .innerJoin(organizations, eq(organizations.id, organizationStores.organizationId))
      .orderBy(asc(organizations.name), asc(organizations.id));
    const data: StoreListing[] = rows.map((row) => ({ ...row, served: servedByItsStore(row) }));
    return c.json({ data });
  })
  /** The organization's store as it was at `at` (`npm run stores -- restore`, restore.ts). */
  .post("/stores/:organizationId/restore", ...jsonBody(restoreInput), async (c) =>
    c.json({
      data: await restoreStore(c.env, c.req.param("organizationId"), c.req.valid("json")),
    }),
  );
