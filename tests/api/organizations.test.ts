// Hand-built requests here are the subject: bodies invalid on purpose the typed client refuses.
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { createOwner, organizationFields, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";

type OrganizationPatch = InferRequestType<
  ReturnType<typeof api>["organizations"][":id"]["$patch"]
>["json"];

const myOrganization = (token: string) => answer(api(token).organizations.me.$get());

/** PATCH /organizations/{id} as `token`'s holder. */
const patchOrganization = (token: string, id: string, json: OrganizationPatch) =>
  answer(api(token).organizations[":id"].$patch({ param: { id }, json }));

describe("POST /organizations (onboarding)", () => {
  it("creates the organization, makes the caller its owner and returns it", async () => {
    const user = await registerUser();
    const res = await answer(
      api(user.token).organizations.$post({
        json: { ...organizationFields, address: "  ", description: "Clínica dental" },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...organizationFields,
      address: null,
      description: "Clínica dental",
    });
    const me = await answer(api(user.token).auth.me.$get());
    expect(me.body.data.role).toBe("owner");
    expect(me.body.data.organization!.id).toBe(res.body.data.id);
  });

  it("answers 409 when the caller already has an organization", async () => {
    const owner = await createOwner();
    const res = await answer(api(owner.token).organizations.$post({ json: organizationFields }));
    expect(res.status).toBe(409);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM memberships WHERE user_id = ?")
      .bind(owner.user.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("requires every onboarding field and names each missing one", async () => {
    const user = await registerUser();
    // On `call`: a body missing required fields, which the typed client would refuse; `details`
    // is read too.
    const res = await call("POST", "/api/v1/organizations", {
      token: user.token,
      body: { name: "  ", industry: "Salud" },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(
      [
        "ai_use_case",
        "business_hours",
        "city",
        "country",
        "employee_count",
        "name",
        "services_offered",
      ].sort(),
    );
    expect((await myOrganization(user.token)).status).toBe(404);
  });

  it("needs a signed-in caller", async () => {
    const res = await answer(api().organizations.$post({ json: organizationFields }));
    expect(res.status).toBe(401);
  });
});

describe("GET /organizations/me", () => {
  it("is 404 organization_not_found for a user without one", async () => {
    const user = await registerUser();
    const res = await myOrganization(user.token);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("organization_not_found");
  });

  it("returns the caller's own organization", async () => {
    const owner = await createOwner({ name: "Taller Ruiz" });
    const res = await myOrganization(owner.token);
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe("Taller Ruiz");
    expect(res.body.data.tracking_key).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("PATCH /organizations/{id}", () => {
  type Owner = { token: string; organization: { id: string } };
  const patch = (owner: Owner, json: OrganizationPatch) =>
    patchOrganization(owner.token, owner.organization.id, json);
  /** A body the typed client would refuse (an unknown field, a wrong type or value), sent raw. */
  const patchMalformed = (owner: Owner, body: object) =>
    answer(
      api(owner.token).organizations[":id"].$patch({
        param: { id: owner.organization.id },
        json: body,
      }),
    );

  it("updates the listed fields only", async () => {
    const owner = await createOwner();
    // On `call`: `tracking_key` is not a field of the update, so the typed client would refuse it.
    const res = await patchMalformed(owner, {
      name: "Nuevo nombre",
      description: "",
      city: "Sevilla",
      tracking_key: "0".repeat(32),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Nuevo nombre",
      description: null,
      city: "Sevilla",
      country: organizationFields.country,
      services_offered: organizationFields.services_offered,
      tracking_key: owner.organization.tracking_key,
    });
  });

  it("starts in euros", async () => {
    const owner = await createOwner();
    expect(owner.organization.currency).toBe("EUR");
    const me = await answer(api(owner.token).auth.me.$get());
    expect(me.body.data.organization!.currency).toBe("EUR");
  });

  it("edits the business facts the AI answers from, and the currency", async () => {
    const owner = await createOwner();
    const facts = {
      employee_count: "51-200",
      services_offered: "  Implantes y blanqueamiento  ",
      business_hours: "L-S 8:00-20:00",
      ai_use_case: "Vender tratamientos",
      currency: "mxn",
    } satisfies OrganizationPatch;
    const res = await patch(owner, facts);
    expect(res.status).toBe(200);
    const stored = {
      ...facts,
      services_offered: "Implantes y blanqueamiento",
      currency: "MXN",
    };
    expect(res.body.data).toMatchObject({ ...stored, name: organizationFields.name });
    const me = await myOrganization(owner.token);
    expect(me.body.data).toMatchObject(stored);
    // Each one alone leaves the others as they are.
    expect((await patch(owner, { currency: "USD" })).body.data).toMatchObject({
      ...stored,
      currency: "USD",
    });
  });

  it.each([
    [{ employee_count: "10-50" }, "employee_count"],
    [{ employee_count: "" }, "employee_count"],
    [{ services_offered: "   " }, "services_offered"],
    [{ services_offered: "x".repeat(2001) }, "services_offered"],
    [{ business_hours: "" }, "business_hours"],
    [{ business_hours: null }, "business_hours"],
    [{ ai_use_case: " " }, "ai_use_case"],
    [{ currency: "EURO" }, "currency"],
    [{ currency: "€" }, "currency"],
    [{ currency: "E1R" }, "currency"],
    [{ currency: 978 }, "currency"],
  ])("refuses %j with 422 naming %s, and changes nothing", async (body, field) => {
    const owner = await createOwner();
    // On `call`: `details` is read (and some rows, a null, a number, an employee count off the
    // list, are values the typed client would refuse).
    const res = await patchMalformed(owner, { ...body, city: "Cádiz" });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([field]);
    const me = await myOrganization(owner.token);
    expect(me.body.data).toMatchObject({ ...organizationFields, currency: "EUR" });
  });

  it("rejects a blank name with 422 and changes nothing", async () => {
    const owner = await createOwner({ name: "Original" });
    // On `call`: the refusal's `details` is read.
    const res = await answer(
      api(owner.token).organizations[":id"].$patch({
        param: { id: owner.organization.id },
        json: { name: " ", city: "Cádiz" },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ path: "name", message: expect.any(String) }]);
    const now = await myOrganization(owner.token);
    expect(now.body.data).toMatchObject({ name: "Original", city: organizationFields.city });
  });

  it("forbids a member whose role is agent", async () => {
    const owner = await createOwner();
    const agent = await registerUser();
    await env.DB.prepare(
      "INSERT INTO memberships (id, organization_id, user_id, role, created_at) VALUES (?, ?, ?, 'agent', ?)",
    )
      .bind(crypto.randomUUID(), owner.organization.id, agent.user.id, new Date().toISOString())
      .run();
    for (const body of [
      { name: "Hackeado" },
      { employee_count: "200+" },
      { services_offered: "Otros" },
      { business_hours: "Nunca" },
      { ai_use_case: "Otro" },
      { currency: "USD" },
    ] satisfies OrganizationPatch[]) {
      const res = await patchOrganization(agent.token, owner.organization.id, body);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("forbidden");
    }
    const me = await myOrganization(owner.token);
    expect(me.body.data).toMatchObject({ ...organizationFields, currency: "EUR" });
  });

  it("lets an admin edit the facts and the currency", async () => {
    const owner = await createOwner();
    const admin = await registerUser();
    await env.DB.prepare(
      "INSERT INTO memberships (id, organization_id, user_id, role, created_at) VALUES (?, ?, ?, 'admin', ?)",
    )
      .bind(crypto.randomUUID(), owner.organization.id, admin.user.id, new Date().toISOString())
      .run();
    const res = await patchOrganization(admin.token, owner.organization.id, {
      business_hours: "24 h",
      currency: "COP",
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ business_hours: "24 h", currency: "COP" });
  });
});

describe("two organizations", () => {
  it("cannot see or change each other", async () => {
    const a = await createOwner({ name: "Empresa A" });
    const b = await createOwner({ name: "Empresa B" });

    const meA = await myOrganization(a.token);
    const meB = await myOrganization(b.token);
    expect(meA.body.data.name).toBe("Empresa A");
    expect(meB.body.data.name).toBe("Empresa B");

    for (const body of [
      { name: "Robada" },
      { employee_count: "1-10", services_offered: "Otros", business_hours: "Nunca" },
      { ai_use_case: "Otro", currency: "USD" },
    ] satisfies OrganizationPatch[]) {
      const cross = await patchOrganization(a.token, b.organization.id, body);
      expect(cross.status).toBe(404);
      expect(cross.body.error).toBe("organization_not_found");
    }
    const still = await myOrganization(b.token);
    expect(still.body.data).toMatchObject({
      ...organizationFields,
      name: "Empresa B",
      currency: "EUR",
    });
    // Nor did A's own organization change.
    expect((await myOrganization(a.token)).body.data).toMatchObject({
      ...organizationFields,
      name: "Empresa A",
      currency: "EUR",
    });

    const unknown = await patchOrganization(a.token, crypto.randomUUID(), { name: "X" });
    expect(unknown.status).toBe(404);
  });
});
