import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import type { AppContext } from "../http/context";
import {
  requestInfo,
  requireCaller,
  requireMember,
  requireRole,
  requireTrackingAccess,
} from "../http/auth";
import { jsonBody, queryParams } from "../http/validate";
import {
  conversionInput,
  dateRangeQuery,
  trackingSessionInput,
  trackingSessionUpdateInput,
} from "./contract";
import { facebookConversionsInput } from "./meta-contract";
import { forwardConversions } from "./meta-service";
import * as tracking from "./service";

/** Only the calls a business's own pages make are open to other origins. */
const publicCors = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "PATCH", "OPTIONS"],
  allowHeaders: ["Content-Type", "X-Tracking-Key"],
  maxAge: 86_400,
});

/** The visitor behind the call, for the conversion's Conversions API user data. */
function visitOf(c: Context<AppContext>): tracking.Visit {
  const { ip, userAgent } = requestInfo(c);
  return { ip, userAgent, pageUrl: c.req.header("Referer")?.slice(0, 2000) ?? null };
}

export const trackingRoutes = new Hono<AppContext>()
  .use("/sessions", publicCors)
  .use("/sessions/*", publicCors)
  .use("/conversions", async (c, next) => (c.req.method === "GET" ? next() : publicCors(c, next)))
  .post("/sessions", requireTrackingAccess, ...jsonBody(trackingSessionInput), async (c) => {
    const session = await tracking.createSession(
      c.var.db,
      c.var.trackingOrganizationId,
      c.req.valid("json"),
      requestInfo(c).ip,
    );
    return c.json({ data: session }, 201);
  })
  .get("/sessions/:id", requireTrackingAccess, async (c) => {
    const session = await tracking.getSession(
      c.var.db,
      c.var.trackingOrganizationId,
      c.req.param("id"),
    );
    return c.json({ data: session });
  })
  .patch(
    "/sessions/:id",
    requireTrackingAccess,
    ...jsonBody(trackingSessionUpdateInput),
    async (c) => {
      const session = await tracking.associatePhone(
        c.var.db,
        c.var.trackingOrganizationId,
        c.req.param("id"),
        c.req.valid("json").phone_number,
      );
      return c.json({ data: session });
    },
  )
  .post("/conversions", requireTrackingAccess, ...jsonBody(conversionInput), async (c) => {
    const conversion = await tracking.recordConversion(
      c.var.deps,
      c.var.trackingOrganizationId,
      c.req.valid("json"),
      visitOf(c),
    );
    return c.json({ data: conversion }, 201);
  })
  .get("/conversions", requireCaller, requireMember, queryParams(dateRangeQuery), async (c) => {
    const list = await tracking.listConversions(
      c.var.db,
      c.var.member.organizationId,
      c.req.valid("query"),
    );
    return c.json({ data: list });
  })
  .post(
    "/facebook-conversions",
    requireCaller,
    requireMember,
    requireRole("owner", "admin"),
    ...jsonBody(facebookConversionsInput),
    async (c) => c.json({ data: await forwardConversions(c.var.deps, c.req.valid("json")) }),
  )
  .get("/stats", requireCaller, requireMember, queryParams(dateRangeQuery), async (c) => {
    const stats = await tracking.trackingStats(
      c.var.db,
      c.var.member.organizationId,
      c.req.valid("query"),
    );
    return c.json({ data: stats });
  });
