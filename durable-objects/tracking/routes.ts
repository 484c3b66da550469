import { Hono, type Context } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requestInfo, requireRole, openToTrackingKey } from "../../worker/http/auth";
import { jsonBody, queryParams } from "../../worker/http/validate";
import { rotateTrackingKey } from "../organizations/service";
import {
  conversionInput,
  conversionsQuery,
  dateRangeQuery,
  trackingSessionInput,
  trackingSessionUpdateInput,
  type TrackingSession,
} from "../../contracts/tracking";
import { facebookConversionsInput } from "../../contracts/pixel";
import { forwardConversions } from "./pixel-service";
import * as tracking from "./service";

/** A page holding only the public key sees its session without the customer's phone. */
const sessionFor = (c: Context<AppContext>, session: TrackingSession) =>
  c.var.tracking.publicKey ? tracking.toPublicSession(session) : session;

/** The visitor behind the call, for the conversion's Conversions API user data. */
function visitOf(c: Context<AppContext>): tracking.Visit {
  const { ip, userAgent } = requestInfo(c);
  return { ip, userAgent, pageUrl: c.req.header("Referer")?.slice(0, 2000) ?? null };
}

export const trackingRoutes = new Hono<AppContext>()
  .post("/sessions", openToTrackingKey, ...jsonBody(trackingSessionInput), async (c) => {
    const session = await tracking.createSession(storeDeps(c), c.var.tracking, {
      session: c.req.valid("json"),
      clientIp: requestInfo(c).ip,
    });
    return c.json({ data: sessionFor(c, session) }, 201);
  })
  .get("/sessions/:id", openToTrackingKey, async (c) => {
    const session = await tracking.getSession(storeDeps(c), c.var.tracking, {
      id: c.req.param("id"),
    });
    return c.json({ data: sessionFor(c, session) });
  })
  .patch("/sessions/:id", openToTrackingKey, ...jsonBody(trackingSessionUpdateInput), async (c) => {
    const session = await tracking.associatePhone(storeDeps(c), c.var.tracking, {
      id: c.req.param("id"),
      phoneNumber: c.req.valid("json").phone_number,
    });
    return c.json({ data: sessionFor(c, session) });
  })
  .post("/conversions", openToTrackingKey, ...jsonBody(conversionInput), async (c) => {
    const record = c.var.tracking.publicKey
      ? tracking.recordPageConversion
      : tracking.recordConversion;
    const conversion = await record(storeDeps(c), c.var.tracking, {
      conversion: c.req.valid("json"),
      visit: visitOf(c),
    });
    return c.json({ data: conversion }, 201);
  })
  .get("/conversions", queryParams(conversionsQuery), async (c) => {
    const page = await tracking.listConversions(storeDeps(c), c.var.member, c.req.valid("query"));
    return c.json({ data: page });
  })
  .post("/key/rotate", requireRole("owner", "admin"), async (c) => {
    const trackingKey = await rotateTrackingKey(storeDeps(c), c.var.member);
    return c.json({ data: { tracking_key: trackingKey } });
  })
  .post(
    "/facebook-conversions",
    requireRole("owner", "admin"),
    ...jsonBody(facebookConversionsInput),
    async (c) => {
      const answer = await forwardConversions(c.var.deps, c.var.member, c.req.valid("json"));
      return c.json({ data: answer });
    },
  )
  .get("/stats", queryParams(dateRangeQuery), async (c) => {
    const stats = await tracking.trackingStats(storeDeps(c), c.var.member, c.req.valid("query"));
    return c.json({ data: stats });
  });
