// Hand-built requests here are the subject: bodies invalid on purpose, malformed JSON, an
// oversized body and forged tokens.
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { answer, api } from "../support/api";
import { createOwner, randomIp, registerUser, uniqueEmail } from "../support/factories";
import { call } from "../support/http";

type Client = ReturnType<typeof api>;
type Registration = InferRequestType<Client["auth"]["register"]["$post"]>["json"];
type Credentials = InferRequestType<Client["auth"]["login"]["$post"]>["json"];

/** A sign-up or sign-in, from the client address `ip` when one is given. */
const from = (ip?: string): { headers: Record<string, string> } => ({
  headers: ip ? { "CF-Connecting-IP": ip } : {},
});
const register = (json: Registration, ip?: string) =>
  answer(api().auth.register.$post({ json }, from(ip)));
const login = (json: Credentials, ip?: string) =>
  answer(api().auth.login.$post({ json }, from(ip)));
const me = (token: string) => answer(api(token).auth.me.$get());

describe("POST /auth/register", () => {
  it("creates the account and answers 201 with a token and the user", async () => {
    const email = uniqueEmail();
    const res = await register({ email, password: "secreto123", full_name: "Ana Pérez" });
    expect(res.status).toBe(201);
    expect(res.body.data.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.data.user).toEqual({ id: expect.any(String), email, full_name: "Ana Pérez" });
  });

  it("trims and lower-cases the e-mail, and a taken e-mail in any case is 409", async () => {
    const email = uniqueEmail("Mixed");
    const first = await register({
      email: `  ${email.toUpperCase()} `,
      password: "secreto123",
      full_name: "Ana",
    });
    expect(first.status).toBe(201);
    expect(first.body.data.user.email).toBe(email.toLowerCase());

    const again = await register({
      email: email.toLowerCase(),
      password: "otraclave",
      full_name: "Otra",
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("conflict");
  });

  it("never stores the password in clear text", async () => {
    const user = await registerUser({ password: "mi-clave-secreta" });
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?")
      .bind(user.user.id)
      .first<{ password_hash: string }>();
    expect(row!.password_hash).not.toContain("mi-clave-secreta");
    expect(row!.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);
  });

  it.each([
    [{ password: "secreto123", full_name: "Ana" }, ["email"]],
    [{ email: "no-es-email", password: "secreto123", full_name: "Ana" }, ["email"]],
    [{ email: "a@b.co", password: "12345", full_name: "Ana" }, ["password"]],
    [{ email: "a@b.co", password: "secreto123", full_name: "   " }, ["full_name"]],
    [{ email: 42, password: ["x"], full_name: null }, ["email", "password", "full_name"]],
  ])("rejects %j with 422 naming %j, storing nothing", async (body, fields) => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    // On `call`: bodies invalid on purpose, some of which the typed client would refuse.
    const res = await call("POST", "/api/v1/auth/register", { body });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.message).toBe("Datos inválidos. Verifica la información ingresada.");
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(
      [...fields].sort(),
    );
    const after = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("limits sign-ups per client address to 10 an hour", async () => {
    const attempt = () =>
      register(
        { email: uniqueEmail("burst"), password: "secreto123", full_name: "Bot" },
        "198.51.100.77",
      );
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(201);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).not.toBeNull();
  });

  it("answers 400 to a body that is not JSON", async () => {
    const malformed = await call("POST", "/api/v1/auth/register", {
      rawBody: "{email:",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("bad_request");

    const form = await call("POST", "/api/v1/auth/register", {
      rawBody: "email=a@b.co",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
  });

  it("answers 413 to an oversized body", async () => {
    const res = await call("POST", "/api/v1/auth/register", {
      body: { email: "a@b.co", password: "secreto123", full_name: "x".repeat(2 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
  });
});

describe("POST /auth/login", () => {
  it("signs in with the e-mail in any case", async () => {
    const user = await registerUser();
    const res = await login({ email: user.email.toUpperCase(), password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.data.user.id).toBe(user.user.id);
    expect((await me(res.body.data.token)).status).toBe(200);
  });

  it("gives the same 401 for a wrong password and an unknown e-mail", async () => {
    const user = await registerUser();
    const wrong = await login({ email: user.email, password: "incorrecta" });
    const unknown = await login({ email: uniqueEmail("nadie"), password: "incorrecta" });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: "invalid_credentials",
        message: "Credenciales incorrectas. Verifica tu email y contraseña.",
      });
    }
  });

  it("answers 429 with Retry-After after repeated failures for one e-mail", async () => {
    const user = await registerUser();
    const attempt = () => login({ email: user.email, password: "mala" });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe("rate_limited");
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // Even the right password waits out the window.
    const right = await login({ email: user.email, password: user.password });
    expect(right.status).toBe(429);
  });

  it("counts each attempt before the password check: a parallel burst gets the same 5", async () => {
    const user = await registerUser();
    const wrong = { email: user.email, password: "mala" };
    const right = { email: user.email, password: user.password };
    const attacker = randomIp();
    const burst = await Promise.all(Array.from({ length: 10 }, () => login(wrong, attacker)));
    const statuses = burst.map((res) => res.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    // Inside the window even the right password, from an address the owner never used, waits.
    expect((await login(right, randomIp())).status).toBe(429);
  });

  it("limits one address guessing many e-mails", async () => {
    const attacker = randomIp();
    const guesses = await Promise.all(
      Array.from({ length: 21 }, () =>
        login({ email: uniqueEmail("spray"), password: "mala" }, attacker),
      ),
    );
    expect(guesses.filter((res) => res.status === 401)).toHaveLength(20);
    expect(guesses.filter((res) => res.status === 429)).toHaveLength(1);
  });

  it("does not lock the owner out from an address they signed in from", async () => {
    const user = await registerUser();
    const wrong = { email: user.email, password: "mala" };
    const right = { email: user.email, password: user.password };
    const home = randomIp();
    expect((await login(right, home)).status).toBe(200);

    const attacker = randomIp();
    for (let i = 0; i < 5; i++) expect((await login(wrong, attacker)).status).toBe(401);
    expect((await login(wrong, attacker)).status).toBe(429);
    // Locked for everyone else, but not from home.
    expect((await login(right, randomIp())).status).toBe(429);
    expect((await login(right, home)).status).toBe(200);
    // Guesses from the owner's own address are limited too, in a window of their own.
    for (let i = 0; i < 5; i++) expect((await login(wrong, home)).status).toBe(401);
    expect((await login(right, home)).status).toBe(429);
  });

  it("never keeps an e-mail locked past its window, however long the guessing goes on", async () => {
    const user = await registerUser();
    const wrong = { email: user.email, password: "mala" };
    const right = { email: user.email, password: user.password };
    const attacker = randomIp();
    for (let i = 0; i < 5; i++) await login(wrong, attacker);
    const locked = await login(wrong, attacker);
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    for (let i = 0; i < 5; i++) await login(wrong, attacker);
    const later = await login(wrong, attacker);
    expect(Number(later.headers.get("Retry-After"))).toBeLessThanOrEqual(retryAfter);

    // The window ends when it said it would: the owner gets in from anywhere.
    await env.DB.prepare("UPDATE rate_limits SET reset_at = ? WHERE key = ?")
      .bind(Date.now() - 1, `login:email:${user.email}`)
      .run();
    expect((await login(right, randomIp())).status).toBe(200);
  });

  it("records sign-ins and failures in the audit log", async () => {
    const user = await registerUser();
    await login({ email: user.email, password: "mala" });
    await login({ email: user.email, password: user.password });
    const { results } = await env.DB.prepare(
      "SELECT action FROM audit_events WHERE user_id = ? ORDER BY created_at",
    )
      .bind(user.user.id)
      .all<{ action: string }>();
    expect(results.map((r) => r.action)).toEqual([
      "auth.register",
      "auth.login_failed",
      "auth.login",
    ]);
  });
});

describe("tokens and sessions", () => {
  it("GET /auth/me returns the user, organization, role and the member's availability", async () => {
    const user = await registerUser();
    const before = await me(user.token);
    expect(before.body.data).toEqual({
      user: user.user,
      organization: null,
      role: null,
      available: null,
    });

    const owner = await createOwner({ name: "Mi Empresa" });
    const after = await me(owner.token);
    expect(after.body.data.organization!.name).toBe("Mi Empresa");
    expect(after.body.data.role).toBe("owner");
    expect(after.body.data.available).toBe(true);
    // The header's switch reads it here: what the member sets is what the session says.
    await api(owner.token).organizations.members[":userId"].$patch({
      param: { userId: owner.user.id },
      json: { available: false },
    });
    const away = await me(owner.token);
    expect(away.body.data.available).toBe(false);
  });

  it("refuses a missing, malformed, forged or other-algorithm token with 401", async () => {
    const user = await registerUser();
    const [header, payload] = user.token.split(".");
    const unsigned = `${btoa(JSON.stringify({ alg: "none", typ: "JWT" })).replace(/=+$/, "")}.${payload}.`;
    for (const token of [undefined, "basura", `${header}.${payload}.firma-falsa`, unsigned]) {
      // On `call`: the token is the subject.
      const res = await call("GET", "/api/v1/auth/me", { token });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    }
  });

  it("logout revokes the presented token everywhere", async () => {
    const user = await registerUser();
    const as = api(user.token);
    expect((await answer(as.auth.logout.$post())).status).toBe(200);
    expect((await me(user.token)).status).toBe(401);
    expect((await answer(as.profiles.me.$get())).status).toBe(401);
    expect((await answer(as.auth.refresh.$post())).status).toBe(401);
  });

  it("refresh issues a new working token and retires the old one", async () => {
    const user = await registerUser();
    const res = await answer(api(user.token).auth.refresh.$post());
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual(user.user);
    expect(res.body.data.token).not.toBe(user.token);
    expect((await me(res.body.data.token)).status).toBe(200);
    expect((await me(user.token)).status).toBe(401);
  });

  it("an expired session is refused even with a valid signature", async () => {
    const user = await registerUser();
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), user.user.id)
      .run();
    expect((await me(user.token)).status).toBe(401);
  });
});
