import { Hono } from "hono";
import { storeDeps, type AppContext } from "../http/context";
import { requestInfo, requireRole } from "../http/auth";
import { jsonBody } from "../http/validate";
import { metaConfigInput, metaConfigUpdateInput, metaConnectInput } from "./meta-contract";
import * as meta from "./meta-service";

const manage = requireRole("owner", "admin");

/** `/meta-config`: the organization's Meta pixel. */
export const metaConfigRoutes = new Hono<AppContext>()
  .get("/", async (c) => c.json({ data: await meta.getMetaConfig(c.var.deps, c.var.member) }))
  .post("/", manage, ...jsonBody(metaConfigInput), async (c) => {
    const config = await meta.saveMetaConfig(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: config }, 201);
  })
  .patch("/", manage, ...jsonBody(metaConfigUpdateInput), async (c) => {
    const config = await meta.updateMetaConfig(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: config });
  })
  .delete("/", manage, async (c) => {
    await meta.deleteMetaConfig(storeDeps(c), c.var.member);
    return c.json({ data: { success: true } });
  })
  .post("/connect", manage, ...jsonBody(metaConnectInput), async (c) => {
    const result = await meta.connectPixel(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: result });
  })
  .post("/test", async (c) => c.json({ data: await meta.testPixel(c.var.deps, c.var.member) }))
  .get("/pixel-info", async (c) => c.json({ data: await meta.pixelInfo(c.var.deps, c.var.member) }))
  .get("/pixel-stats", async (c) =>
    c.json({ data: await meta.pixelStats(c.var.deps, c.var.member) }),
  )
  .get("/ad-accounts", async (c) =>
    c.json({ data: await meta.adAccounts(c.var.deps, c.var.member) }),
  )
  .post("/test-conversions", manage, async (c) => {
    const result = await meta.sendTestConversion(c.var.deps, c.var.member, {
      userAgent: requestInfo(c).userAgent,
      pageUrl: c.req.header("Referer") ?? new URL(c.req.url).origin,
    });
    return c.json({ data: result });
  })
  .post("/generate-test-code", manage, async (c) => {
    return c.json({ data: await meta.generateTestCode(c.var.deps, c.var.member) });
  });
