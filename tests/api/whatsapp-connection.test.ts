// Hand-built requests here are the subject: Facebook's redirects to the callback, a browser's
// GET whose nonce cookie and signed state are what is tested.
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { orgFirst } from "../support/org-data";
import { failNext, graphRequests } from "../support/webhooks";

type Client = ReturnType<typeof api>;
type ByHand = InferRequestType<Client["whatsapp-config"]["$post"]>["json"];
type Exchange = InferRequestType<Client["whatsapp"]["oauth"]["exchange"]["$post"]>["json"];

// One file, one D1: the fixture number can belong to one organization at a time, so each
// test that connects it disconnects it at the end.
const disconnect = (token: string) => answer(api(token)["whatsapp-config"].$delete());
/** A fresh code the fake Graph API exchanges once. */
const newCode = () => `valid-${crypto.randomUUID()}`;

const connectByHand = (token: string, json: ByHand) =>
  answer(api(token)["whatsapp-config"].$post({ json }));
const exchange = (token: string, json: Exchange) =>
  answer(api(token).whatsapp.oauth.exchange.$post({ json }));
const oauthStatus = (token: string) => answer(api(token).whatsapp.oauth.status.$get());

/**
 * Starts the redirect flow as `token`'s holder: its url and state, and the answer's headers
 * (the nonce cookie).
 */
async function startFlow(token: string) {
  const request = api(token).whatsapp.oauth["auth-url"].$get();
  return { ...(await answer(request)), headers: (await request).headers };
}

describe("connecting by hand", () => {
  it("checks the token with Meta, stores it encrypted and never returns it", async () => {
    const owner = await createOwner();
    const res = await connectByHand(owner.token, {
      phone_number_id: "555000111",
      business_account_id: "waba-1",
      access_token: "sandbox-access-token",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      phone_number: GRAPH_FIXTURES.displayPhoneNumber,
      status: "connected",
    });
    expect(JSON.stringify(res.body)).not.toContain("sandbox-access-token");
    const row = await env.DB.prepare(
      "SELECT access_token_encrypted FROM whatsapp_connections WHERE organization_id = ?",
    )
      .bind(owner.organization.id)
      .first<{ access_token_encrypted: string }>();
    expect(row!.access_token_encrypted).toMatch(/^v1\./);
    expect(row!.access_token_encrypted).not.toContain("sandbox-access-token");
    const got = await answer(api(owner.token)["whatsapp-config"].$get());
    expect(JSON.stringify(got.body)).not.toContain("access_token");
    expect((await answer(api(owner.token)["whatsapp-config"].test.$post())).body.data).toEqual({
      success: true,
      phone_number: GRAPH_FIXTURES.displayPhoneNumber,
    });
    await disconnect(owner.token);
  });

  it("POST /connect re-checks the number with Meta and records the outcome", async () => {
    const owner = await createOwner();
    await connectByHand(owner.token, {
      phone_number_id: "555000333",
      business_account_id: "waba-1",
      access_token: "sandbox-access-token",
    });
    const reconnect = api(owner.token)["whatsapp-config"].connect;
    const ok = await answer(reconnect.$post({ json: { phone_number: "+34 611 000 000" } }));
    expect(ok.body.data).toMatchObject({ status: "connected", phone_number: "+34 611 000 000" });
    await failNext("graph", {
      path: "/v25.0/555000333",
      status: 401,
      error: { message: "expired", code: 190 },
    });
    const broken = await answer(reconnect.$post({ json: {} }));
    expect(broken.body.data.status).toBe("error");
    await disconnect(owner.token);
  });

  it("refuses a token Meta rejects with 422, storing nothing", async () => {
    const owner = await createOwner();
    const res = await connectByHand(owner.token, {
      phone_number_id: "555000222",
      business_account_id: "waba-1",
      access_token: "token-caducado",
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("token de acceso de Meta no es válido");
    expect((await answer(api(owner.token)["whatsapp-config"].$get())).status).toBe(404);
  });

  it("refuses a WhatsApp Business Account that does not hold the number, storing nothing", async () => {
    const owner = await createOwner();
    const res = await connectByHand(owner.token, {
      phone_number_id: "555000444",
      business_account_id: GRAPH_FIXTURES.foreignWabaId,
      access_token: "sandbox-access-token",
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: "meta_error",
      message: "Esa cuenta de WhatsApp Business no tiene este número: revisa su identificador.",
      details: [{ path: "business_account_id" }],
    });
    expect((await answer(api(owner.token)["whatsapp-config"].$get())).status).toBe(404);
    // Nor on a change of the account alone.
    await connectByHand(owner.token, {
      phone_number_id: "555000444",
      business_account_id: "waba-1",
      access_token: "sandbox-access-token",
    });
    const moved = await answer(
      api(owner.token)["whatsapp-config"].$patch({
        json: { business_account_id: GRAPH_FIXTURES.foreignWabaId },
      }),
    );
    expect(moved.status).toBe(422);
    const kept = await env.DB.prepare(
      "SELECT business_account_id FROM whatsapp_connections WHERE organization_id = ?",
    )
      .bind(owner.organization.id)
      .first<{ business_account_id: string }>();
    expect(kept!.business_account_id).toBe("waba-1");
    await disconnect(owner.token);
  });
});

describe("POST /whatsapp/oauth/exchange", () => {
  it("exchanges the code once, finds the account and number, subscribes, registers and stores", async () => {
    const owner = await createOwner();
    const code = newCode();
    const res = await exchange(owner.token, { code });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ phone_number: GRAPH_FIXTURES.displayPhoneNumber });
    expect(await graphRequests(`/${GRAPH_FIXTURES.wabaId}/subscribed_apps`)).not.toEqual([]);
    const register = (await graphRequests(`/${GRAPH_FIXTURES.phoneNumberId}/register`)).at(-1);
    expect(register.body.pin).toMatch(/^\d{6}$/);

    // The pixel connect of the same login reuses the token: the code is not exchanged again.
    const pixel = await answer(api(owner.token)["meta-config"].connect.$post({ json: { code } }));
    expect(pixel.status).toBe(200);
    expect(pixel.body.data).toEqual({ pixel_id: GRAPH_FIXTURES.pixelId });

    const status = await oauthStatus(owner.token);
    expect(status.body.data).toEqual({
      connected: true,
      status: "connected",
      phone_number: GRAPH_FIXTURES.displayPhoneNumber,
    });
    await disconnect(owner.token);
  });

  it.each([
    ["a code Meta refuses", { code: "codigo-malo" }, 400, "token_exchange_failed"],
    [
      "an account the login did not grant",
      { code: newCode(), waba_id: "otra-cuenta" },
      400,
      "no_permissions",
    ],
    [
      "a number not in the account",
      { code: newCode(), phone_number_id: "999" },
      400,
      "no_phone_number",
    ],
  ])("answers %s with its connection error code", async (_name, body, status, code) => {
    const owner = await createOwner();
    const res = await exchange(owner.token, body);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect((await oauthStatus(owner.token)).body.data.connected).toBe(false);
  });

  it("reports a failing save as save_failed", async () => {
    const first = await createOwner();
    await connectByHand(first.token, {
      phone_number_id: GRAPH_FIXTURES.phoneNumberId,
      business_account_id: GRAPH_FIXTURES.wabaId,
      access_token: "sandbox-access-token",
    });
    const second = await createOwner();
    const res = await exchange(second.token, { code: newCode() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("save_failed");
    expect(res.body.details).toEqual([
      { path: "meta", message: "Este número ya está conectado a otra organización." },
    ]);
    await disconnect(first.token);
  });

  it("the redirect flow ends on /oauth-success, or /oauth-error with the code", async () => {
    const owner = await createOwner();
    const auth = await startFlow(owner.token);
    expect(auth.body.data.url).toContain("https://www.facebook.com/v25.0/dialog/oauth?client_id=");
    const state = auth.body.data.state;
    const cookie = auth.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^wa_oauth_nonce=[\w-]+; Max-Age=600; Path=\/api\/v1\/whatsapp\/oauth;/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    const browser = { Cookie: cookie.split(";")[0]! };

    // On `call`: Facebook's redirect to the callback, a browser's GET with a cookie and a query
    // the route leaves untyped, answered with a redirect, not JSON.
    const denied = await call(
      "GET",
      "/api/v1/whatsapp/oauth/callback?error=access_denied&error_description=no",
    );
    expect(denied.headers.get("Location")).toContain("/oauth-error?error=access_denied");
    const forged = await call("GET", "/api/v1/whatsapp/oauth/callback?code=valid-code&state=falso");
    expect(forged.headers.get("Location")).toContain("/oauth-error?error=invalid_state");
    const ok = await call(
      "GET",
      `/api/v1/whatsapp/oauth/callback?code=${newCode()}&state=${state}`,
      { headers: browser },
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toContain("/oauth-success?phone=");
    // Facebook's redirect reaches the Worker; the connection is recorded in the store's trail.
    const connected = await orgFirst(
      owner.organization.id,
      "SELECT user_id FROM audit_events WHERE action = 'whatsapp.connect'",
    );
    expect(connected).toEqual({ user_id: owner.user.id });
    await disconnect(owner.token);
  });

  it("the redirect flow's state only comes back to the browser that asked for it", async () => {
    const owner = await createOwner();
    const auth = await startFlow(owner.token);
    const state = auth.body.data.state;
    // Someone holding the leaked state finishes the flow with their own code, in their own
    // browser: without the nonce, or with the nonce of a flow they started themselves.
    const intruder = await createOwner();
    const theirs = await startFlow(intruder.token);
    const browsers: Record<string, string>[] = [
      {},
      { Cookie: theirs.headers.get("Set-Cookie")!.split(";")[0]! },
    ];
    for (const headers of browsers) {
      // On `call`: the callback, a browser's redirect the route leaves untyped (see above).
      const res = await call(
        "GET",
        `/api/v1/whatsapp/oauth/callback?code=${newCode()}&state=${state}`,
        { headers },
      );
      expect(res.headers.get("Location")).toContain("/oauth-error?error=invalid_state");
    }
    const status = await oauthStatus(owner.token);
    expect(status.body.data.connected).toBe(false);
  });

  it("the redirect flow's state dies with the session that asked for it", async () => {
    const owner = await createOwner();
    const ends: Record<string, (token: string) => Promise<unknown>> = {
      logout: (token) => answer(api(token).auth.logout.$post()),
      "a revocation (refresh)": (token) => answer(api(token).auth.refresh.$post()),
    };
    for (const [how, end] of Object.entries(ends)) {
      const login = await answer(
        api().auth.login.$post({ json: { email: owner.email, password: owner.password } }),
      );
      const token: string = login.body.data.token;
      const auth = await startFlow(token);
      const browser = { Cookie: auth.headers.get("Set-Cookie")!.split(";")[0]! };
      await end(token);
      // On `call`: the callback, a browser's redirect the route leaves untyped (see above).
      const res = await call(
        "GET",
        `/api/v1/whatsapp/oauth/callback?code=${newCode()}&state=${auth.body.data.state}`,
        { headers: browser },
      );
      expect(res.headers.get("Location"), how).toContain("/oauth-error?error=invalid_state");
    }
    const status = await oauthStatus(owner.token);
    expect(status.body.data.connected).toBe(false);
  });

  it("needs Meta's answer for each step: a failing debug_token is no_permissions", async () => {
    const owner = await createOwner();
    await failNext("graph", {
      path: "/v25.0/debug_token",
      status: 500,
      error: { message: "boom", code: 2 },
    });
    const res = await exchange(owner.token, { code: newCode() });
    expect(res.body.error).toBe("no_permissions");
  });
});

// Embedded Signup v4 lets a business finish with a number it has not verified, or with none
// (decision 0074): nothing is connected, and the answer says in Spanish what is left to do.
describe("POST /whatsapp/oauth/exchange after an unfinished v4 signup", () => {
  it("refuses a number Meta lists as not verified: nothing registered, nothing stored, the next step said", async () => {
    const owner = await createOwner();
    const res = await exchange(owner.token, {
      code: newCode(),
      waba_id: GRAPH_FIXTURES.pendingWabaId,
      phone_number_id: GRAPH_FIXTURES.pendingPhoneNumberId,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("number_not_verified");
    expect(res.body.message).toBe(
      "El número de WhatsApp aún no está verificado. Verifícalo en el Administrador de WhatsApp de Meta (Números de teléfono) con el código que Meta envía por SMS o llamada y después vuelve a pulsar «Conectar con Meta Business».",
    );
    // The account's numbers were asked with their verification status.
    const listed = (await graphRequests(`/${GRAPH_FIXTURES.pendingWabaId}/phone_numbers`)).at(-1);
    expect(listed.query.fields).toContain("code_verification_status");
    expect(await graphRequests(`/${GRAPH_FIXTURES.pendingPhoneNumberId}/register`)).toEqual([]);
    expect((await oauthStatus(owner.token)).body.data.connected).toBe(false);
    const row = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM whatsapp_connections WHERE organization_id = ?",
    )
      .bind(owner.organization.id)
      .first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("answers an account without any number (FINISH_ONLY_WABA) with no_phone_number and what to do", async () => {
    const owner = await createOwner();
    const res = await exchange(owner.token, {
      code: newCode(),
      waba_id: GRAPH_FIXTURES.emptyWabaId,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("no_phone_number");
    expect(res.body.message).toMatch(/Administrador de WhatsApp de Meta/);
    expect((await oauthStatus(owner.token)).body.data.connected).toBe(false);
  });
});
