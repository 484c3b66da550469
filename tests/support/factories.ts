import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { answer, api } from "./api";

let sequence = 0;

export function randomIp() {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

export function uniqueEmail(prefix = "user") {
  sequence += 1;
  return `${prefix}-${sequence}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

export const organizationFields = {
  name: "Clínica Sonrisa",
  industry: "Salud",
  employee_count: "11-50",
  services_offered: "Limpiezas, ortodoncia e implantes",
  business_hours: "L-V 9:00-19:00",
  city: "Madrid",
  country: "España",
  ai_use_case: "Responder dudas y agendar citas",
};

export async function registerUser(overrides: Partial<Record<string, string>> = {}) {
  const input = {
    email: uniqueEmail(),
    password: "secreto123",
    full_name: "Ana Pérez",
    ...overrides,
  };
  // Each test user comes from its own address, as real sign-ups do (registrations are limited per IP).
  const response = await answer(
    api().auth.register.$post({ json: input }, { headers: { "CF-Connecting-IP": randomIp() } }),
  );
  if (response.status !== 201) throw new Error(`register failed: ${JSON.stringify(response.body)}`);
  return { ...input, token: response.body.data.token, user: response.body.data.user };
}

/** A registered user who owns a fresh organization. */
export async function createOwner(organization: Partial<typeof organizationFields> = {}) {
  const owner = await registerUser();
  const response = await answer(
    api(owner.token).organizations.$post({ json: { ...organizationFields, ...organization } }),
  );
  if (response.status !== 201) throw new Error(`org failed: ${JSON.stringify(response.body)}`);
  return { ...owner, organization: response.body.data };
}

type Owner = Awaited<ReturnType<typeof createOwner>>;

/** A registered user who joins the organization with `role` (as an accepted invitation does). */
export async function addMember(organizationId: string, role: "admin" | "agent") {
  const user = await registerUser();
  await env.DB.prepare(
    "INSERT INTO memberships (id, organization_id, user_id, role, created_at) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(crypto.randomUUID(), organizationId, user.user.id, role, new Date().toISOString())
    .run();
  return user;
}

type AgentFields = InferRequestType<ReturnType<typeof api>["agents"]["$post"]>["json"];
type ConversationFields = InferRequestType<
  ReturnType<typeof api>["conversations"]["$post"]
>["json"];

export async function createAgent(owner: Owner, overrides: Partial<AgentFields> = {}) {
  const response = await answer(
    api(owner.token).agents.$post({
      json: { name: "Sofía", system_prompt: "Eres la asistente de la clínica.", ...overrides },
    }),
  );
  if (response.status !== 201) throw new Error(`agent failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export async function createConversation(
  owner: Owner,
  overrides: Partial<ConversationFields> = {},
) {
  const response = await answer(
    api(owner.token).conversations.$post({
      json: {
        phone_number: `346${Math.floor(10_000_000 + Math.random() * 89_999_999)}`,
        ...overrides,
      },
    }),
  );
  if (response.status !== 201)
    throw new Error(`conversation failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}
