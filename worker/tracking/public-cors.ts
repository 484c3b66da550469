/**
 * The tracking calls a business's own pages make (`/tracking/sessions`, a conversion sent from a
 * page) are open to other origins: the edge answers their preflight and adds the headers to what
 * the store answers (worker/api.ts).
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppContext } from "../http/context";

const publicCors = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "PATCH", "OPTIONS"],
  allowHeaders: ["Content-Type", "X-Tracking-Key"],
  maxAge: 86_400,
});

export const publicTrackingCors = new Hono<AppContext>()
  .use("/sessions", publicCors)
  .use("/sessions/*", publicCors)
  .use("/conversions", async (c, next) => (c.req.method === "GET" ? next() : publicCors(c, next)));
