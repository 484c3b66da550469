import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requestInfo, requireRole } from "../../worker/http/auth";
import { jsonBody } from "../../worker/http/validate";
import { pixelConfigInput, pixelConfigUpdateInput, pixelConnectInput } from "../../contracts/pixel";
import * as pixel from "./pixel-service";

const manage = requireRole("owner", "admin");

/** `/meta-config`: the organization's Meta pixel. */
export const pixelConfigRoutes = new Hono<AppContext>()
  .get("/", async (c) => c.json({ data: await pixel.getPixelConfig(storeDeps(c)) }))
  .post("/", manage, ...jsonBody(pixelConfigInput), async (c) => {
    const config = await pixel.savePixelConfig(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: config }, 201);
  })
  .patch("/", manage, ...jsonBody(pixelConfigUpdateInput), async (c) => {
    const config = await pixel.updatePixelConfig(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: config });
  })
  .delete("/", manage, async (c) => {
    await pixel.deletePixelConfig(storeDeps(c), c.var.member);
    return c.json({ data: { success: true } });
  })
  .post("/connect", manage, ...jsonBody(pixelConnectInput), async (c) => {
    const result = await pixel.connectPixel(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: result });
  })
  .post("/test", async (c) => c.json({ data: await pixel.testPixel(storeDeps(c)) }))
  .get("/pixel-info", async (c) => c.json({ data: await pixel.pixelInfo(storeDeps(c)) }))
  .get("/pixel-stats", async (c) => c.json({ data: await pixel.pixelStats(storeDeps(c)) }))
  .get("/ad-accounts", async (c) => c.json({ data: await pixel.adAccounts(storeDeps(c)) }))
  .post("/test-conversions", manage, async (c) => {
    const result = await pixel.sendTestConversion(storeDeps(c), {
      userAgent: requestInfo(c).userAgent,
      pageUrl: c.req.header("Referer") ?? new URL(c.req.url).origin,
    });
    return c.json({ data: result });
  })
  .post("/generate-test-code", manage, async (c) => {
    return c.json({ data: await pixel.generateTestCode(storeDeps(c)) });
  });
