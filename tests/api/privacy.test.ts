import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAgent, createConversation, createOwner, registerUser } from "../support/factories";
import { seedMessage } from "../support/db";
import { call } from "../support/http";

const countIn = async (table: string, column: string, value: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<{ n: number }>())!.n;

describe("GET /profiles/me/export", () => {
  it("returns the caller's data and, for an owner, the organization's, without secrets", async () => {
    const owner = await createOwner({ name: "Exportable" });
    const conversation = await createConversation(owner, { contact_name: "Cliente" });
    await seedMessage(owner.organization.id, conversation.id, { content: "Hola desde WhatsApp" });
    await createAgent(owner, { name: "Bot" });
    const res = await call("GET", "/api/v1/profiles/me/export", { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain("attachment");
    const doc = res.body.data;
    expect(doc.user).toMatchObject({ id: owner.user.id, email: owner.email });
    expect(doc.organization.name).toBe("Exportable");
    expect(doc.organization.messages[0].content).toBe("Hola desde WhatsApp");
    expect(doc.organization.agents[0].name).toBe("Bot");
    const text = JSON.stringify(doc);
    expect(text).not.toContain("pbkdf2");
    expect(text).not.toMatch(/access_?token/i);
  });

  it("gives a member who is not an owner only their own data", async () => {
    const user = await registerUser();
    const res = await call("GET", "/api/v1/profiles/me/export", { token: user.token });
    expect(res.body.data.organization).toBeUndefined();
    expect(res.body.data.user.id).toBe(user.user.id);
  });
});

describe("DELETE /profiles/me", () => {
  it("needs the right password and changes nothing otherwise", async () => {
    const owner = await createOwner();
    const res = await call("DELETE", "/api/v1/profiles/me", {
      token: owner.token,
      body: { password: "mala" },
    });
    expect(res.status).toBe(422);
    expect((await call("GET", "/api/v1/auth/me", { token: owner.token })).status).toBe(200);
  });

  it("deletes the sole owner's account and organization, revoking every token", async () => {
    const owner = await createOwner();
    const second = await call("POST", "/api/v1/auth/login", {
      body: { email: owner.email, password: owner.password },
    });
    const conversation = await createConversation(owner);
    await seedMessage(owner.organization.id, conversation.id);
    const res = await call("DELETE", "/api/v1/profiles/me", {
      token: owner.token,
      body: { password: owner.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.organization_deleted).toBe(true);
    for (const token of [owner.token, second.body.data.token]) {
      expect((await call("GET", "/api/v1/auth/me", { token })).status).toBe(401);
    }
    expect(await countIn("users", "id", owner.user.id)).toBe(0);
    expect(await countIn("sessions", "user_id", owner.user.id)).toBe(0);
    expect(await countIn("organizations", "id", owner.organization.id)).toBe(0);
    expect(await countIn("messages", "organization_id", owner.organization.id)).toBe(0);
    expect(await countIn("conversations", "organization_id", owner.organization.id)).toBe(0);
    expect(await countIn("conversation_counts", "organization_id", owner.organization.id)).toBe(0);
    const login = await call("POST", "/api/v1/auth/login", {
      body: { email: owner.email, password: owner.password },
    });
    expect(login.status).toBe(401);
  });
});
