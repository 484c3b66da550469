// What the broadcast and follow-up tests share: an organization ready to send marketing (a
// connected number, approved templates, no quiet hours, a label) and its customers.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { organizationStore } from "../../worker/stores/registry";
import { api, answer } from "./api";
import { connectWhatsapp } from "./db";
import { createOwner } from "./factories";
import { orgSqlBatch } from "./org-data";
import { customerPhone } from "./webhooks";

export type Owner = Awaited<ReturnType<typeof createOwner>>;

/** The fake Meta's approved templates: a marketing one without parameters, a utility one with one. */
export const MARKETING = { name: "bienvenida", language: "es", parameters: [] as string[] };
export const UTILITY = { name: "seguimiento_cita", language: "es", parameters: ["Lucía"] };

/** An organization with a connected number, both templates, no quiet hours, and its label. */
export async function marketingOrganization() {
  const owner = await createOwner();
  const orgId = owner.organization.id as string;
  const connection = await connectWhatsapp(orgId, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
  });
  const templates = [
    { ...MARKETING, category: "MARKETING", text: "¡Gracias por escribirnos!" },
    { ...UTILITY, category: "UTILITY", text: "Hola {{1}}, ¿te confirmamos la cita?" },
  ];
  await orgSqlBatch(
    orgId,
    templates.map((t) => ({
      sql: `INSERT INTO whatsapp_templates (id, organization_id, meta_template_id, name, language,
              category, status, components, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, 'APPROVED', ?, ?)`,
      params: [
        crypto.randomUUID(),
        orgId,
        `tpl-${t.name}`,
        t.name,
        t.language,
        t.category,
        JSON.stringify([{ type: "BODY", text: t.text }]),
        new Date().toISOString(),
      ],
    })),
  );
  // Whatever the hour the tests run at: empty quiet hours (their own tests set some).
  await setQuietHours(owner, "00:00", "00:00");
  const label = await answer(
    api(owner.token).labels.$post({ json: { name: "Clientes VIP", color: "#16a34a" } }),
  );
  expect(label.status).toBe(201);
  return {
    owner,
    orgId,
    phoneNumberId: connection.phoneNumberId,
    labelId: (label.body as { data: { id: string } }).data.id,
    store: await organizationStore(env, orgId),
  };
}
export type MarketingOrganization = Awaited<ReturnType<typeof marketingOrganization>>;

export async function setQuietHours(owner: Owner, start: string, end: string, timeZone?: string) {
  const res = await answer(
    api(owner.token).organizations[":id"].$patch({
      param: { id: owner.organization.id },
      json: { quiet_hours_start: start, quiet_hours_end: end, time_zone: timeZone },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The number's messaging limit tier at the fake Meta. */
export async function setMessagingLimit(phoneNumberId: string, tier: string) {
  await fetch(`${new URL(env.META_GRAPH_URL).origin}/__fake/messaging-limit`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ phone_number_id: phoneNumberId, tier }),
  });
}

/** A customer as the tests need them; by default they wrote just now and carry the label. */
export interface SeededCustomer {
  phone?: string;
  optedOut?: boolean;
  labelled?: boolean;
  /** Their last message (ISO); now unless given. */
  lastInboundAt?: string;
  /** Since when the business waits for their answer (follow-ups), or none. */
  followUpSince?: string;
}

/** Customers with the label, as the ingest leaves them; answers their conversations' ids. */
export async function seedCustomers(
  { orgId, labelId }: Pick<MarketingOrganization, "orgId" | "labelId">,
  customers: SeededCustomer[],
) {
  const now = new Date().toISOString();
  const ids = customers.map(() => crypto.randomUUID());
  await orgSqlBatch(orgId, [
    ...customers.map((c, i) => ({
      sql: `INSERT INTO conversations (id, organization_id, phone_number, contact_name,
              last_inbound_at, last_message_at, marketing_opted_out_at, marketing_opt_out_source,
              marketing_consent_at, follow_up_since, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, CASE WHEN ?6 IS NOT NULL THEN 'meta' END, ?6, ?7,
              ?8, ?8)`,
      params: [
        ids[i],
        orgId,
        c.phone ?? customerPhone(),
        `Cliente ${i + 1}`,
        c.lastInboundAt ?? now,
        c.optedOut ? now : null,
        c.followUpSince ?? null,
        now,
      ],
    })),
    ...customers.flatMap((c, i) =>
      c.labelled === false
        ? []
        : [
            {
              sql: "INSERT INTO conversation_labels (conversation_id, label_id, organization_id) VALUES (?, ?, ?)",
              params: [ids[i], labelId, orgId],
            },
          ],
    ),
  ]);
  return ids;
}
