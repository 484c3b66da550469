import { Hono } from "hono";
import type { AppContext } from "../http/context";
import { requireCaller, requireMember } from "../http/auth";
import { queryParams } from "../http/validate";
import { adsReport } from "./ads-service";
import { dateRangeQuery } from "./contract";

/** `GET /tracking/ads`: the Anuncios tab. */
export const adsRoutes = new Hono<AppContext>()
  .use(requireCaller, requireMember)
  .get("/", queryParams(dateRangeQuery), async (c) => {
    return c.json({ data: await adsReport(c.var.deps, c.var.member, c.req.valid("query")) });
  });
