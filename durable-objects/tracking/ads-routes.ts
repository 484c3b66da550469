import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { queryParams } from "../../worker/http/validate";
import { adsReport, messageCostReport } from "./ads-service";
import { reportRangeQuery } from "../../contracts/tracking";

/** What ads and messages cost and brought: the Anuncios tab and the dashboard's cost. */
// Mounted beside the public tracking calls: each route asks for a member itself.
export const adsRoutes = new Hono<AppContext>()
  .get("/ads", queryParams(reportRangeQuery), async (c) => {
    return c.json({ data: await adsReport(storeDeps(c), c.var.member, c.req.valid("query")) });
  })
  .get("/message-costs", queryParams(reportRangeQuery), async (c) => {
    const query = c.req.valid("query");
    return c.json({ data: await messageCostReport(storeDeps(c), c.var.member, query) });
  });
