// Broadcasts ("Difusiones", contract section 17), the first slice: the CRUD with its roles,
// the template a broadcast may use, its audience (each criterion alone and together), and the
// preview: who would receive it, who consent leaves out and why, and what Meta would charge
// (decision 0060).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { audienceCustomers } from "../../durable-objects/broadcasts/audience";
import type { z } from "zod/mini";
import type { AudienceCriteria, broadcastInput } from "../../contracts/broadcasts";
import { api, answer } from "../support/api";
import { addMember, createConversation, createOwner } from "../support/factories";
import { connectWhatsapp } from "../support/db";
import { orgSql, orgSqlBatch, withOrgDb } from "../support/org-data";

type Owner = Awaited<ReturnType<typeof createOwner>>;

const HOUR_MS = 3600 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A template of the organization's account, as `GET /whatsapp-config/templates` stores it. */
async function seedTemplate(
  orgId: string,
  { name = "promo_otono", language = "es", category = "MARKETING", status = "APPROVED" } = {},
  body = "Hola {{1}}, tenemos una oferta para ti",
) {
  await orgSql(
    orgId,
    `INSERT INTO whatsapp_templates (id, organization_id, meta_template_id, name, language,
       category, status, components, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    crypto.randomUUID(),
    orgId,
    `tpl-${crypto.randomUUID().slice(0, 8)}`,
    name,
    language,
    category,
    status,
    JSON.stringify([{ type: "BODY", text: body }]),
    new Date().toISOString(),
  );
}

/** An organization with an approved marketing template (one parameter) and a utility one. */
async function setup() {
  const owner = await createOwner();
  const orgId = owner.organization.id as string;
  await seedTemplate(orgId);
  await seedTemplate(orgId, { name: "aviso_cita", category: "UTILITY" }, "Tu cita es mañana");
  return { owner, orgId };
}

const marketing = { name: "promo_otono", language: "es", parameters: ["Lucía"] };
const utility = { name: "aviso_cita", language: "es" };

interface Customer {
  phone?: string | null;
  userId?: string | null;
  stage?: string;
  adId?: string | null;
  lastInboundAt?: string | null;
  optedOutAt?: string | null;
  limitedUntil?: string | null;
}

let sequence = 0;
/** A Spanish mobile no other test uses. */
const spanish = () => `3467${String(1_000_000 + (sequence++ % 8_999_999)).padStart(7, "0")}`;

/** Customers' conversations, written as ingest leaves them; answers their ids in order. */
async function seedCustomers(orgId: string, customers: Customer[]) {
  const now = new Date().toISOString();
  const ids = customers.map(() => crypto.randomUUID());
  await orgSqlBatch(
    orgId,
    customers.map((c, i) => ({
      sql: `INSERT INTO conversations (id, organization_id, phone_number, wa_user_id, stage, ad_id,
              last_inbound_at, last_message_at, marketing_opted_out_at, marketing_opt_out_source,
              marketing_consent_at, marketing_limited_until, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, CASE WHEN ?9 IS NOT NULL THEN 'meta' END,
              ?9, ?10, ?8, ?8)`,
      params: [
        ids[i],
        orgId,
        c.phone === undefined ? spanish() : c.phone,
        c.userId ?? null,
        c.stage ?? "new",
        c.adId ?? null,
        c.lastInboundAt === undefined ? ago(HOUR_MS) : c.lastInboundAt,
        now,
        c.optedOutAt ?? null,
        c.limitedUntil ?? null,
      ],
    })),
  );
  return ids;
}

/** A message Meta reported failed with `code`, at `at`, in the conversation. */
async function seedFailure(orgId: string, conversationId: string, code: string, at: string) {
  await orgSql(
    orgId,
    `INSERT INTO messages (id, organization_id, conversation_id, content, direction, sender_type,
       status, error, error_code, created_at)
     VALUES (?, ?, ?, 'Hola', 'outbound', 'agent', 'failed', 'No entregado', ?, ?)`,
    crypto.randomUUID(),
    orgId,
    conversationId,
    code,
    at,
  );
}

type BroadcastBody = z.input<typeof broadcastInput>;

async function create(token: string, body: Partial<BroadcastBody>) {
  return answer(
    api(token).broadcasts.$post({
      json: { name: "Promo de otoño", template: marketing, ...body },
    }),
  );
}

/** A broadcast that must be created; answers its id. */
async function created(token: string, body: Partial<BroadcastBody> = {}) {
  const res = await create(token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: { id: string } }).data.id;
}

async function preview(token: string, id: string) {
  const res = await answer(api(token).broadcasts[":id"].preview.$post({ param: { id } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** How many a broadcast with this audience would reach (the preview's own count). */
async function reached(owner: Owner, audience: AudienceCriteria, template = marketing) {
  const id = await created(owner.token, { audience, template });
  return (await preview(owner.token, id)).recipients;
}

// ---------------------------------------------------------------------------------------------

describe("creating, reading, editing and deleting", () => {
  it("creates a draft, lists newest first, edits it and deletes it", async () => {
    const { owner } = await setup();
    const sendAt = later(48 * HOUR_MS);
    const res = await create(owner.token, {
      audience: { stages: ["lead"], has_phone: true },
      send_at: sendAt,
    });
    expect(res.status).toBe(201);
    const broadcast = res.body.data;
    expect(broadcast).toMatchObject({
      name: "Promo de otoño",
      status: "draft",
      template: {
        name: "promo_otono",
        language: "es",
        category: "MARKETING",
        parameters: ["Lucía"],
      },
      audience: { stages: ["lead"], has_phone: true },
      send_at: sendAt,
      created_by: owner.user.id,
    });
    const second = await created(owner.token, { name: "Recordatorio", template: utility });

    const list = await answer(api(owner.token).broadcasts.$get({ query: {} }));
    expect(list.status).toBe(200);
    expect(list.body.data.broadcasts.map((b) => b.id)).toEqual([second, broadcast.id]);
    expect(list.body.data.broadcasts[0]!.template.category).toBe("UTILITY");
    const firstPage = await answer(api(owner.token).broadcasts.$get({ query: { limit: "1" } }));
    expect(firstPage.body.data).toMatchObject({ has_more: true });
    const next = await answer(
      api(owner.token).broadcasts.$get({ query: { limit: "1", before: second } }),
    );
    expect(next.body.data.broadcasts.map((b) => b.id)).toEqual([broadcast.id]);
    expect(next.body.data.has_more).toBe(false);

    const edited = await answer(
      api(owner.token).broadcasts[":id"].$patch({
        param: { id: broadcast.id },
        json: { name: "Promo de invierno", send_at: null, audience: { ad_ids: ["ad-9"] } },
      }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      name: "Promo de invierno",
      send_at: null,
      audience: { ad_ids: ["ad-9"] },
      template: { name: "promo_otono" },
    });
    const read = await answer(
      api(owner.token).broadcasts[":id"].$get({ param: { id: broadcast.id } }),
    );
    expect(read.body.data).toEqual(edited.body.data);

    const deleted = await answer(
      api(owner.token).broadcasts[":id"].$delete({ param: { id: broadcast.id } }),
    );
    expect(deleted.status).toBe(200);
    const gone = await answer(
      api(owner.token).broadcasts[":id"].$get({ param: { id: broadcast.id } }),
    );
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("Difusión no encontrada.");
  });

  it("lets agents read and preview, and only owners and admins write", async () => {
    const { owner, orgId } = await setup();
    const id = await created(owner.token);
    const agent = await addMember(orgId, "agent");
    const admin = await addMember(orgId, "admin");

    const list = await answer(api(agent.token).broadcasts.$get({ query: {} }));
    expect(list.status).toBe(200);
    expect(list.body.data.broadcasts.map((b) => b.id)).toEqual([id]);
    expect((await answer(api(agent.token).broadcasts[":id"].$get({ param: { id } }))).status).toBe(
      200,
    );
    expect((await preview(agent.token, id)).recipients).toBe(0);

    const refused = await Promise.all([
      create(agent.token, {}),
      answer(api(agent.token).broadcasts[":id"].$patch({ param: { id }, json: { name: "Mía" } })),
      answer(api(agent.token).broadcasts[":id"].$delete({ param: { id } })),
    ]);
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403]);
    const unchanged = await answer(api(owner.token).broadcasts[":id"].$get({ param: { id } }));
    expect(unchanged.body.data.name).toBe("Promo de otoño");
    expect(
      (await answer(api(owner.token).broadcasts.$get({ query: {} }))).body.data.broadcasts,
    ).toHaveLength(1);

    expect((await create(admin.token, {})).status).toBe(201);
    const renamed = await answer(
      api(admin.token).broadcasts[":id"].$patch({ param: { id }, json: { name: "De Ana" } }),
    );
    expect(renamed.body.data.name).toBe("De Ana");
  });

  it("edits or deletes only a draft or a scheduled broadcast (409 otherwise)", async () => {
    const { owner, orgId } = await setup();
    const scheduled = await created(owner.token);
    const sending = await created(owner.token);
    await orgSql(orgId, "UPDATE broadcasts SET status = 'scheduled' WHERE id = ?", scheduled);
    await orgSql(orgId, "UPDATE broadcasts SET status = 'sending' WHERE id = ?", sending);

    const patchScheduled = await answer(
      api(owner.token).broadcasts[":id"].$patch({ param: { id: scheduled }, json: { name: "Ok" } }),
    );
    expect(patchScheduled.status).toBe(200);

    for (const refused of [
      await answer(
        api(owner.token).broadcasts[":id"].$patch({ param: { id: sending }, json: { name: "No" } }),
      ),
      await answer(api(owner.token).broadcasts[":id"].$delete({ param: { id: sending } })),
    ]) {
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        "Solo se puede cambiar o borrar una difusión en borrador o programada.",
      );
    }
    const kept = await answer(api(owner.token).broadcasts[":id"].$get({ param: { id: sending } }));
    expect(kept.body.data).toMatchObject({ name: "Promo de otoño", status: "sending" });
    expect(
      (await answer(api(owner.token).broadcasts[":id"].$delete({ param: { id: scheduled } })))
        .status,
    ).toBe(200);
  });

  it("refuses bad input with a Spanish message and stores nothing", async () => {
    const { owner, orgId } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ template: { name: "promo_otono" } }, "template.language"],
      [{ audience: { stages: ["vip"] } }, "audience.stages.0"],
      [{ audience: { colour: "red" } }, "audience"],
      [{ audience: { label_ids: [] } }, "audience.label_ids"],
      [{ audience: { last_inbound_after: "ayer" } }, "audience.last_inbound_after"],
      [{ audience: { has_phone: "sí" } }, "audience.has_phone"],
      [
        { audience: { last_inbound_after: "2026-11-20", last_inbound_before: "2026-11-01" } },
        "audience.last_inbound_after",
      ],
      [{ send_at: "mañana" }, "send_at"],
    ];
    for (const [body, path] of cases) {
      const res = await answer(
        api(owner.token).broadcasts.$post({
          json: { name: "Promo", template: marketing, ...body },
        }),
      );
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const past = await create(owner.token, { send_at: ago(60_000) });
    expect(past.status).toBe(422);
    expect(past.body.message).toBe("La fecha de envío debe ser futura.");
    const emptyPatch = await answer(
      api(owner.token).broadcasts[":id"].$patch({ param: { id: crypto.randomUUID() }, json: {} }),
    );
    expect(emptyPatch.status).toBe(422);
    expect(await orgSql(orgId, "SELECT id FROM broadcasts")).toEqual([]);
  });
});

describe("the template", () => {
  it("must be an approved marketing or utility template of the account, in that language", async () => {
    const { owner, orgId } = await setup();
    await seedTemplate(orgId, { name: "pendiente", status: "PENDING" }, "Hola");
    await seedTemplate(orgId, { name: "codigo", category: "AUTHENTICATION" }, "Tu código");
    const cases: [BroadcastBody["template"], string, string][] = [
      [
        { name: "no_existe", language: "es" },
        "template_not_found",
        "La plantilla no existe en tu cuenta de WhatsApp.",
      ],
      [
        { name: "pendiente", language: "es" },
        "template_not_approved",
        "Solo se pueden usar plantillas aprobadas por Meta.",
      ],
      [
        { name: "codigo", language: "es" },
        "template_category",
        "Una difusión solo puede usar plantillas de marketing o de utilidad.",
      ],
      [
        { name: "promo_otono", language: "en_US", parameters: ["Ana"] },
        "template_language",
        "La plantilla no está en el idioma en_US (está en: es).",
      ],
      [
        { name: "promo_otono", language: "es" },
        "template_parameters",
        "La plantilla necesita 1 parámetro.",
      ],
    ];
    for (const [template, error, message] of cases) {
      const res = await create(owner.token, { template });
      expect(res.status, error).toBe(422);
      expect(res.body).toMatchObject({ error, message });
    }
    const id = await created(owner.token);
    const patched = await answer(
      api(owner.token).broadcasts[":id"].$patch({
        param: { id },
        json: { template: { name: "pendiente", language: "es" } },
      }),
    );
    expect(patched.status).toBe(422);
    expect(patched.body.error).toBe("template_not_approved");
    expect(await orgSql(orgId, "SELECT template_name FROM broadcasts")).toEqual([
      { template_name: "promo_otono" },
    ]);
  });

  it("not listed here yet is looked up at Meta, as a single send does", async () => {
    const { owner, orgId } = await setup();
    await connectWhatsapp(orgId);
    // The fake account's "bienvenida", created at Meta after the list was last read.
    const id = await created(owner.token, {
      template: { name: "bienvenida", language: "es", parameters: [] },
    });
    expect(
      await orgSql(orgId, "SELECT template_category FROM broadcasts WHERE id = ?", id),
    ).toEqual([{ template_category: "MARKETING" }]);
    const missing = await create(owner.token, { template: { name: "no_existe", language: "es" } });
    expect(missing.body).toMatchObject({ error: "template_not_found" });
  });

  it("of another organization is unknown here", async () => {
    const { owner } = await setup();
    const other = await createOwner();
    await seedTemplate(other.organization.id, { name: "solo_de_otros" }, "Hola");
    const res = await create(owner.token, { template: { name: "solo_de_otros", language: "es" } });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("template_not_found");
  });
});

describe("the audience", () => {
  it("selects by each criterion alone, and by all of them together", async () => {
    const { owner, orgId } = await setup();
    const [lead, customerFromAd, oldLead, bsuidOnly, neverWrote] = await seedCustomers(orgId, [
      { stage: "lead", adId: "ad-1", lastInboundAt: ago(2 * HOUR_MS) },
      { stage: "customer", adId: "ad-2", lastInboundAt: ago(30 * 24 * HOUR_MS) },
      { stage: "lead", lastInboundAt: ago(40 * 24 * HOUR_MS) },
      { phone: null, userId: `CO.${crypto.randomUUID().replaceAll("-", "")}`, stage: "lost" },
      { stage: "new", lastInboundAt: null },
    ]);
    const label = await answer(
      api(owner.token).labels.$post({ json: { name: "VIP", color: "#dc2626" } }),
    );
    const labelId = label.body.data.id;
    const other = await answer(
      api(owner.token).labels.$post({ json: { name: "Frío", color: "#2563eb" } }),
    );
    for (const [id, labelIds] of [
      [lead!, [labelId]],
      [oldLead!, [other.body.data.id]],
      [bsuidOnly!, [labelId, other.body.data.id]],
    ] as const) {
      const put = await answer(
        api(owner.token).conversations[":id"].labels.$put({
          param: { id },
          json: { label_ids: [...labelIds] },
        }),
      );
      expect(put.status).toBe(200);
    }
    const tenDaysAgo = ago(10 * 24 * HOUR_MS);
    const all = [lead, customerFromAd, oldLead, bsuidOnly, neverWrote];
    expect(all).toHaveLength(5);

    expect(await reached(owner, {})).toBe(5);
    expect(await reached(owner, { label_ids: [labelId] })).toBe(2);
    expect(await reached(owner, { label_ids: [labelId, other.body.data.id] })).toBe(3);
    expect(await reached(owner, { stages: ["lead"] })).toBe(2);
    expect(await reached(owner, { stages: ["lead", "lost"] })).toBe(3);
    expect(await reached(owner, { ad_ids: ["ad-1", "ad-2"] })).toBe(2);
    expect(await reached(owner, { last_inbound_after: tenDaysAgo })).toBe(2); // lead, bsuidOnly
    expect(await reached(owner, { last_inbound_before: tenDaysAgo })).toBe(2); // the two old ones
    expect(await reached(owner, { has_phone: true })).toBe(4);
    expect(await reached(owner, { has_phone: false })).toBe(1);
    // Together: every criterion holds.
    expect(await reached(owner, { label_ids: [labelId], stages: ["lead"] })).toBe(1);
    expect(
      await reached(owner, {
        label_ids: [labelId, other.body.data.id],
        stages: ["lead", "lost"],
        last_inbound_after: tenDaysAgo,
        has_phone: true,
      }),
    ).toBe(1);
    expect(await reached(owner, { ad_ids: ["ad-1"], stages: ["customer"] })).toBe(0);
  });

  it("lists the ads its conversations came from, for the ad criterion, each organization its own", async () => {
    const a = await setup();
    const b = await setup();
    const [fromAd] = await seedCustomers(a.orgId, [
      { adId: "ad-1" },
      { adId: "ad-1" },
      { adId: "ad-2" },
      { adId: null },
    ]);
    await seedCustomers(b.orgId, [{ adId: "ad-3" }]);
    await orgSqlBatch(a.orgId, [
      {
        sql: "UPDATE conversations SET ad_headline = 'Blanqueamiento -20 %' WHERE id = ?",
        params: [fromAd],
      },
    ]);
    const ads = await answer(api(a.owner.token).broadcasts.audience.ads.$get());
    expect(ads.status).toBe(200);
    expect(ads.body.data).toEqual([
      { ad_id: "ad-1", headline: "Blanqueamiento -20 %", conversations: 2 },
      { ad_id: "ad-2", headline: null, conversations: 1 },
    ]);
    const ofB = await answer(api(b.owner.token).broadcasts.audience.ads.$get());
    expect(ofB.body.data).toEqual([{ ad_id: "ad-3", headline: null, conversations: 1 }]);
  });

  it("is evaluated when asked, not when saved", async () => {
    const { owner, orgId } = await setup();
    const id = await created(owner.token, { audience: { stages: ["lead"] } });
    expect((await preview(owner.token, id)).recipients).toBe(0);
    const [lead] = await seedCustomers(orgId, [{ stage: "lead" }]);
    expect((await preview(owner.token, id)).recipients).toBe(1);
    await orgSql(orgId, "UPDATE conversations SET stage = 'customer' WHERE id = ?", lead);
    expect((await preview(owner.token, id)).recipients).toBe(0);
  });

  it("takes only the organization's own labels", async () => {
    const { owner, orgId } = await setup();
    const other = await createOwner();
    const foreign = await answer(
      api(other.token).labels.$post({ json: { name: "Ajena", color: "#dc2626" } }),
    );
    const res = await create(owner.token, { audience: { label_ids: [foreign.body.data.id] } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: "unknown_label",
      message: "Alguna de las etiquetas de la audiencia no existe en tu organización.",
    });
    const id = await created(owner.token);
    const patched = await answer(
      api(owner.token).broadcasts[":id"].$patch({
        param: { id },
        json: { audience: { label_ids: [foreign.body.data.id] } },
      }),
    );
    expect(patched.status).toBe(422);
    expect(await orgSql(orgId, "SELECT audience FROM broadcasts")).toEqual([{ audience: "{}" }]);
  });
});

describe("the preview", () => {
  it("leaves out opted-out, limited, US, unserved and undeliverable customers, by reason", async () => {
    const { owner, orgId } = await setup();
    const ids = await seedCustomers(orgId, [
      { phone: "34611000001" }, // ES: receives it
      { phone: "5215512345678" }, // MX: receives it
      { phone: "14165550123" }, // Toronto (+1, Canada): receives it
      { phone: "34611000002", optedOutAt: ago(HOUR_MS) },
      { phone: "34611000003", limitedUntil: later(5 * HOUR_MS) },
      { phone: "34611000004", limitedUntil: ago(HOUR_MS) }, // the limit is over: receives it
      { phone: "12125550123" }, // New York: Meta refuses US marketing
      { phone: null, userId: `US.${crypto.randomUUID().replaceAll("-", "")}` },
      { phone: "5352345678" }, // Cuba: not served
      { phone: "34611000005" }, // 131026 after they last wrote
      { phone: "34611000006" }, // 131026, then they wrote again: reachable
    ]);
    await seedFailure(orgId, ids[9]!, "131026", ago(60_000));
    await seedFailure(orgId, ids[10]!, "131026", ago(3 * HOUR_MS));
    await seedFailure(orgId, ids[0]!, "131049", ago(60_000)); // another failure says nothing here

    const id = await created(owner.token);
    const result = await preview(owner.token, id);
    expect(result.recipients).toBe(5);
    expect(result.skipped).toEqual({ opted_out: 1, limited: 1, unreachable: 4, frequency: 0 });
    expect(
      Object.fromEntries(
        Object.entries(result.estimated_cost.by_country).map(([c, v]) => [c, v.recipients]),
      ),
    ).toEqual({ ES: 3, MX: 1, US: 1 });

    // A utility template is not marketing: only the undeliverable number is left out.
    const reminder = await created(owner.token, { template: utility });
    const forUtility = await preview(owner.token, reminder);
    expect(forUtility.recipients).toBe(10);
    expect(forUtility.skipped).toEqual({ opted_out: 0, limited: 0, unreachable: 1, frequency: 0 });
  });

  it("prices each country at the latest rate of the organization's pricing analytics", async () => {
    const { owner, orgId } = await setup();
    await seedCustomers(orgId, [
      { phone: "34611000011" },
      { phone: "34611000012" },
      { phone: "5215512345670" },
      { phone: null, userId: `CO.${crypto.randomUUID().replaceAll("-", "")}` },
    ]);
    const now = new Date().toISOString();
    await orgSql(
      orgId,
      `INSERT INTO message_costs (organization_id, day, category, country, volume, cost, fetched_at)
       VALUES (?1, '2026-10-01', 'marketing', 'ES', 10, 1.0, ?2),
              (?1, '2026-10-05', 'marketing', 'ES', 10, 0.9, ?2),
              (?1, '2026-10-09', 'utility', 'ES', 4, 0.08, ?2),
              (?1, '2026-10-03', 'marketing_lite', 'CO', 5, 0.1, ?2)`,
      orgId,
      now,
    );
    const id = await created(owner.token);
    const { estimated_cost } = await preview(owner.token, id);
    expect(estimated_cost.currency).toBe("EUR");
    expect(estimated_cost.by_country).toEqual({
      // 0.9 / 10, the latest day with Spanish marketing (the utility row is not marketing).
      ES: { recipients: 2, rate: 0.09, amount: 0.18, source: "analytics" },
      // Billed as marketing_lite through the Marketing Messages API: the same rate.
      CO: { recipients: 1, rate: 0.02, amount: 0.02, source: "analytics" },
      // No figure for Mexico: Meta's card, 0.0305 USD at 0.86 EUR a dollar.
      MX: { recipients: 1, rate: 0.02623, amount: 0.03, source: "rate_card" },
    });
    expect(estimated_cost.amount).toBe(0.23);

    const reminder = await created(owner.token, { template: utility });
    const forUtility = (await preview(owner.token, reminder)).estimated_cost.by_country;
    expect(forUtility.ES).toEqual({ recipients: 2, rate: 0.02, amount: 0.04, source: "analytics" });
    expect(forUtility.CO).toMatchObject({ source: "rate_card", rate: 0.000688 });
  });

  it("uses the rate card in the organization's currency, and gives no amount it cannot convert", async () => {
    const { owner, orgId } = await setup();
    await seedCustomers(orgId, [
      { phone: "34611000021" },
      { phone: "5511987654321" }, // BR
      { phone: "4915112345678" }, // DE: the card's default
    ]);
    const setCurrency = (currency: string) =>
      env.DB.prepare("UPDATE organizations SET currency = ? WHERE id = ?")
        .bind(currency, orgId)
        .run();
    await setCurrency("USD");
    const id = await created(owner.token);
    const inUsd = (await preview(owner.token, id)).estimated_cost;
    expect(inUsd).toEqual({
      amount: 0.18,
      currency: "USD",
      by_country: {
        BR: { recipients: 1, rate: 0.0625, amount: 0.06, source: "rate_card" },
        DE: { recipients: 1, rate: 0.0604, amount: 0.06, source: "rate_card" },
        ES: { recipients: 1, rate: 0.0615, amount: 0.06, source: "rate_card" },
      },
    });

    await setCurrency("JPY");
    const unknown = (await preview(owner.token, id)).estimated_cost;
    expect(unknown.currency).toBe("JPY");
    expect(unknown.amount).toBeNull();
    expect(unknown.by_country.ES).toEqual({
      recipients: 1,
      rate: null,
      amount: null,
      source: "rate_card",
    });
  });

  it("counts 10,000 conversations in one query read by index", async () => {
    const { owner, orgId } = await setup();
    const now = new Date().toISOString();
    await orgSql(
      orgId,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
       INSERT INTO conversations (id, organization_id, phone_number, stage, last_inbound_at,
         last_message_at, marketing_opted_out_at, created_at, updated_at)
       SELECT lower(hex(randomblob(16))), ?1, '3465' || (1000000 + i),
         CASE WHEN i % 2 = 0 THEN 'lead' ELSE 'new' END, ?2, ?2,
         CASE WHEN i % 10 = 0 THEN ?2 END, ?2, ?2
       FROM n`,
      orgId,
      now,
    );
    const id = await created(owner.token, { audience: { stages: ["lead"] } });
    const result = await preview(owner.token, id);
    expect(result.recipients).toBe(4000);
    expect(result.skipped.opted_out).toBe(1000);

    const audience: AudienceCriteria = {
      label_ids: ["l-1"],
      stages: ["lead"],
      ad_ids: ["ad-1"],
      last_inbound_after: now,
      has_phone: true,
    };
    const inStore = await withOrgDb(orgId, (db) => audienceCustomers(db, orgId, audience).toSQL());
    const plan = await orgSql<{ detail: string }>(
      orgId,
      `EXPLAIN QUERY PLAN ${inStore.sql}`,
      ...inStore.params,
    );
    const details = plan.map((row) => row.detail);
    // Conversations by the organization's index; labels and failures by theirs, never walked.
    expect(details.some((d) => /^SEARCH conversations USING INDEX/.test(d))).toBe(true);
    expect(
      details.filter((d) => /^SCAN (conversations|messages|m|conversation_labels|cl)\b/.test(d)),
    ).toEqual([]);
    expect(details.some((d) => d.includes("messages_undeliverable_idx"))).toBe(true);
  });
});

describe("two organizations", () => {
  it("reach only their own broadcasts and customers", async () => {
    const a = await setup();
    const b = await setup();
    await seedCustomers(a.orgId, [{ stage: "lead" }, { stage: "lead" }]);
    await seedCustomers(b.orgId, [{ stage: "lead" }]);
    const ofA = await created(a.owner.token, { audience: { stages: ["lead"] } });
    const ofB = await created(b.owner.token, { audience: { stages: ["lead"] } });

    const token = b.owner.token;
    const refused = [
      await answer(api(token).broadcasts[":id"].$get({ param: { id: ofA } })),
      await answer(
        api(token).broadcasts[":id"].$patch({ param: { id: ofA }, json: { name: "B" } }),
      ),
      await answer(api(token).broadcasts[":id"].$delete({ param: { id: ofA } })),
      await answer(api(token).broadcasts[":id"].preview.$post({ param: { id: ofA } })),
    ];
    expect(refused.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    const list = await answer(api(token).broadcasts.$get({ query: {} }));
    expect(list.body.data.broadcasts.map((x) => x.id)).toEqual([ofB]);
    expect((await preview(token, ofB)).recipients).toBe(1);
    expect((await preview(a.owner.token, ofA)).recipients).toBe(2);
    const kept = await answer(api(a.owner.token).broadcasts[":id"].$get({ param: { id: ofA } }));
    expect(kept.body.data.name).toBe("Promo de otoño");
  });

  it("created through the API lands in the organization's store", async () => {
    const { owner, orgId } = await setup();
    await createConversation(owner);
    const id = await created(owner.token);
    expect(await orgSql(orgId, "SELECT id FROM broadcasts WHERE id = ?", id)).toHaveLength(1);
  });
});
