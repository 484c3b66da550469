import { asc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { organizations, organizationStores } from "../db/schema";
import type { AppContext } from "../http/context";
import { notFound, unauthorized } from "../http/errors";
import { jsonBody } from "../http/validate";
import type { StoreListing } from "./contract";
import {
  abortMove,
  beginMove,
  copyPage,
  finishMove,
  switchMove,
  syncChanges,
} from "./move-service";
import { STORE_TABLE_NAMES, type StoreTable } from "./store-tables";

const moveInput = z.object({ to: z.enum(["d1", "store"]) });
const copyInput = z.object({
  table: z.enum(STORE_TABLE_NAMES as [string, ...string[]]).transform((t) => t as StoreTable),
  after: z.string().max(1000),
});
const changesInput = z.object({ after: z.number().int().min(0) });

/** Equal secrets, compared in constant time (their digests: the lengths may differ). */
async function sameSecret(given: string, expected: string) {
  const digest = (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/**
 * `/api/v1/operator/*`: the operator's own calls (`npm run stores`), authorized by the
 * `OPERATOR_TOKEN` secret. A deployment without one does not have them: 404.
 */
export const operatorRoutes = new Hono<AppContext>()
  .use(async (c, next) => {
    const expected = c.env.OPERATOR_TOKEN;
    if (!expected) throw notFound("Ruta no encontrada.");
    const given = c.req.header("Authorization")?.match(/^Bearer (.+)$/)?.[1] ?? "";
    if (!(await sameSecret(given, expected))) throw unauthorized("Token de operador no válido.");
    await next();
  })
  /** Every organization and where its data is, as the registry knows it. */
  .get("/stores", async (c) => {
    const rows = await c.var.db
      .select({
        organization_id: organizations.id,
        name: organizations.name,
        state: organizationStores.state,
        schema_version: organizationStores.schemaVersion,
        bytes: organizationStores.bytes,
        messages: organizationStores.messages,
        stuck_parts: organizationStores.stuckParts,
      })
      .from(organizationStores)
      .innerJoin(organizations, eq(organizations.id, organizationStores.organizationId))
      .orderBy(asc(organizations.name), asc(organizations.id));
    return c.json({ data: rows satisfies StoreListing[] });
  })
  /** A move, in the steps `npm run stores -- move` takes (move-service.ts). */
  .post("/stores/:organizationId/move", ...jsonBody(moveInput), async (c) =>
    c.json({
      data: await beginMove(c.var.deps, c.req.param("organizationId"), c.req.valid("json").to),
    }),
  )
  .post("/stores/:organizationId/copy", ...jsonBody(copyInput), async (c) => {
    const { table, after } = c.req.valid("json");
    return c.json({
      data: await copyPage(c.var.deps, c.req.param("organizationId"), table, after),
    });
  })
  .post("/stores/:organizationId/changes", ...jsonBody(changesInput), async (c) =>
    c.json({
      data: await syncChanges(c.var.deps, c.req.param("organizationId"), c.req.valid("json").after),
    }),
  )
  .post("/stores/:organizationId/switch", async (c) =>
    c.json({ data: await switchMove(c.var.deps, c.req.param("organizationId")) }),
  )
  .post("/stores/:organizationId/finish", async (c) =>
    c.json({ data: await finishMove(c.var.deps, c.req.param("organizationId")) }),
  )
  .post("/stores/:organizationId/abort", async (c) =>
    c.json({ data: await abortMove(c.var.deps, c.req.param("organizationId")) }),
  );
