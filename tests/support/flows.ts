// What the booking Flow's tests share (contract section 18): an organization whose number is
// connected (so its Flow is registered on the fake), a customer who wrote (the window is open),
// and WhatsApp's side of the Flow endpoint: requests encrypted for the registered key, answers
// opened with the inverted IV.
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { publicKeyPem } from "../../worker/flows/crypto";
import {
  delivery,
  encryptFlowRequest,
  inboundMessage,
  signPayload,
} from "../fakes/whatsapp-payloads.mjs";
import { api, answer } from "./api";
import { ALWAYS, createService, setHours, type ServiceInput } from "./bookings";
import { createOwner } from "./factories";
import { orgSql } from "./org-data";
import { customerPhone, deliver, graphRequests } from "./webhooks";

export const flowsPublicKey = () => publicKeyPem(env.FLOWS_PRIVATE_KEY!);

/** Posts a signed body to `/webhooks/flows`; answers the status and the raw text. */
export async function postFlowBody(raw: string, signature?: string) {
  const response = await exports.default.fetch("http://localhost/webhooks/flows", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": signature ?? (await signPayload(raw, env.META_APP_SECRET!)),
    },
    body: raw,
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** WhatsApp's call to the endpoint: encrypted, signed; the answer opened when it is 200. */
export async function flowCall(payload: Record<string, unknown>, publicKey?: string) {
  const request = await encryptFlowRequest(publicKey ?? (await flowsPublicKey()), payload);
  const res = await postFlowBody(JSON.stringify(request.body));
  return {
    ...res,
    answer: res.status === 200 ? await request.open(res.text) : (null as any),
  };
}

export const exchange = (
  token: string,
  action: "INIT" | "data_exchange" | "BACK",
  screen?: string,
  data?: Record<string, unknown>,
) =>
  flowCall({
    version: "3.0",
    action,
    flow_token: token,
    ...(screen && { screen }),
    ...(data && { data }),
  });

export type FlowOwner = Awaited<ReturnType<typeof flowOrganization>>;

/**
 * An owner whose organization is open all day every day (an hour's notice), with a service,
 * a number connected through the API (its own id and account, so the Flow is registered for
 * it), and a customer whose message opened the window.
 */
export async function flowOrganization(
  service: Partial<ServiceInput> = {},
  options = { failFlow: false },
) {
  const owner = await createOwner();
  const orgId = owner.organization.id as string;
  await setHours(owner, ALWAYS, { minNotice: 60 });
  const created = await createService(owner, service);
  const phoneNumberId = `77${Math.floor(Math.random() * 1e12)}`;
  const wabaId = `88${Math.floor(Math.random() * 1e12)}`;
  if (options.failFlow) {
    await fetch(`${new URL(env.META_GRAPH_URL).origin}/__fake/fail`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        path: `${new URL(env.META_GRAPH_URL).pathname}/${wabaId}/flows`,
        status: 400,
        error: { message: "(#200) Permissions error", code: 200 },
      }),
    });
  }
  const connected = await answer(
    api(owner.token)["whatsapp-config"].$post({
      json: {
        phone_number_id: phoneNumberId,
        business_account_id: wabaId,
        access_token: "sandbox-access-token",
      },
    }),
  );
  expect(connected.status, JSON.stringify(connected.body)).toBe(201);
  const customer = customerPhone();
  const conversationId = await customerWrites(orgId, phoneNumberId, customer);
  return { owner, orgId, service: created, phoneNumberId, wabaId, customer, conversationId };
}

/** A customer's message to the number; answers its conversation's id. */
export async function customerWrites(orgId: string, phoneNumberId: string, from: string) {
  const res = await deliver(
    delivery(inboundMessage({ phoneNumberId, from, text: "Hola, ¿cita?" })),
  );
  expect(res.status).toBe(200);
  const [row] = await orgSql<{ id: string }>(
    orgId,
    "SELECT id FROM conversations WHERE phone_number = ?",
    from,
  );
  return row!.id;
}

export function sendBookingFlow(owner: FlowOwner["owner"], conversationId: string, json = {}) {
  return answer(
    api(owner.token).conversations[":id"]["booking-flow"].$post({
      param: { id: conversationId },
      json,
    }),
  );
}

/** The interactive message the fake Graph accepted last for this customer. */
export async function lastInteractive(customer: string) {
  const sent = (await graphRequests("/messages")).filter(
    (r) => r.body?.type === "interactive" && r.body?.to === customer,
  );
  return sent.at(-1)?.body.interactive;
}

/** Sends the Flow to the organization's customer; answers its token. */
export async function sentFlowToken(org: FlowOwner, json = {}) {
  const res = await sendBookingFlow(org.owner, org.conversationId, json);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((res.body as { data: { kind: string } }).data.kind).toBe("flow");
  const interactive = await lastInteractive(org.customer);
  return interactive.action.parameters.flow_token as string;
}
