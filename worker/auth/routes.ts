import { Hono } from "hono";
import type { AppContext } from "../http/context";
import { requestInfo, requireCaller } from "../http/auth";
import { jsonBody } from "../http/validate";
import { neverLimited } from "../http/write-limits";
import {
  accountDeletionInput,
  loginInput,
  profileUpdateInput,
  registerInput,
} from "../../contracts/auth";
import * as privacy from "./privacy-service";
import * as auth from "./service";
import * as profiles from "./profile-service";

export const authRoutes = new Hono<AppContext>()
  .post("/register", ...jsonBody(registerInput), async (c) => {
    const result = await auth.register(
      c.var.db,
      c.env.JWT_SECRET,
      c.req.valid("json"),
      requestInfo(c),
      Number(c.env.REGISTRATIONS_PER_HOUR) || undefined,
    );
    return c.json({ data: result }, 201);
  })
  .post("/login", ...jsonBody(loginInput), async (c) => {
    const result = await auth.login(
      c.var.deps,
      c.env.JWT_SECRET,
      c.req.valid("json"),
      requestInfo(c),
    );
    return c.json({ data: result });
  })
  .post("/logout", requireCaller, neverLimited, async (c) => {
    await auth.logout(c.var.deps, c.var.caller);
    return c.json({ data: { success: true } });
  })
  .get("/me", requireCaller, async (c) => {
    return c.json({ data: await auth.me(c.var.deps, c.var.caller) });
  })
  .post("/refresh", requireCaller, async (c) => {
    const result = await auth.refresh(c.var.deps, c.env.JWT_SECRET, c.var.caller, requestInfo(c));
    return c.json({ data: result });
  });

export const profileRoutes = new Hono<AppContext>()
  .use(requireCaller)
  .get("/me", async (c) => c.json({ data: await profiles.getProfile(c.var.deps, c.var.caller) }))
  .patch("/me", ...jsonBody(profileUpdateInput), async (c) => {
    const profile = await profiles.updateProfile(c.var.deps, c.var.caller, c.req.valid("json"));
    return c.json({ data: profile });
  })
  .get("/me/export", async (c) => {
    // Streamed: the document is written section by section, a page of rows at a time.
    const document = await privacy.exportAccount(c.var.deps, c.var.caller);
    return c.body(document, 200, {
      "Content-Type": "application/json",
      "Content-Disposition": 'attachment; filename="mis-datos-atiende.json"',
    });
  })
  .delete("/me", ...jsonBody(accountDeletionInput), async (c) => {
    const result = await privacy.deleteAccount(c.var.deps, c.var.caller, c.req.valid("json"));
    return c.json({ data: result });
  });
