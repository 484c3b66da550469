// Hand-built on purpose: Meta's webhook deliveries are signed over their raw body.
import { env } from "cloudflare:workers";
import { signPayload } from "../fakes/whatsapp-payloads.mjs";
import { call } from "./http";

/** Posts a delivery to the webhook as Meta does: raw JSON signed with the app secret. */
export async function deliver(
  payload: unknown,
  options: { secret?: string; signature?: string; headers?: Record<string, string> } = {},
) {
  const raw = JSON.stringify(payload);
  const signature =
    options.signature ?? (await signPayload(raw, options.secret ?? env.META_APP_SECRET!));
  return call("POST", "/webhooks/whatsapp", {
    rawBody: raw,
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": signature,
      ...options.headers,
    },
  });
}

const controlUrl = (base: string, path: string) => `${new URL(base).origin}/__fake/${path}`;
/** A fake's control path (see tests/fakes/README.md). */
const fakeControl = (service: "graph" | "model", path: string) =>
  controlUrl(service === "graph" ? env.META_GRAPH_URL : env.AI_BASE_URL, path);

/** Requests the fake Graph API received (optionally only those whose path contains `part`). */
export async function graphRequests(part = ""): Promise<any[]> {
  const all = (await (await fetch(fakeControl("graph", "requests"))).json()) as any[];
  return all.filter((r) => r.path.includes(part));
}

export async function modelRequests(): Promise<any[]> {
  return (await (await fetch(fakeControl("model", "requests"))).json()) as any[];
}

/** Posts to a fake's control path (see tests/fakes/README.md). */
async function control(service: "graph" | "model", path: string, body: unknown) {
  await fetch(fakeControl(service, path), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Makes the next matching request to a fake fail (see tests/fakes/README.md). */
export const failNext = (service: "graph" | "model", failure: Record<string, unknown>) =>
  control(service, "fail", failure);

export const scriptModel = (replies: Record<string, unknown>[]) =>
  control("model", "script", { replies });

/** The fake Graph answers the next message containing `contains` with the message id `id`. */
export const chooseMessageId = (contains: string, id: string) =>
  control("graph", "message-id", { contains, id });

/** How many requests a failure's `hold` keeps waiting (a small read, unlike the request log). */
export async function heldRequests(service: "graph" | "model", hold: string) {
  const url = `${fakeControl(service, "held")}?hold=${encodeURIComponent(hold)}`;
  return ((await (await fetch(url)).json()) as { waiting: number }).waiting;
}

/** Answers the requests a failure's `hold` kept waiting. */
export const releaseHeld = (service: "graph" | "model", hold: string) =>
  control(service, "release", { hold });

/** A Spanish customer's phone (wa_id) no other test uses. */
export const customerPhone = () => `346${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/** A customer's business-scoped user id (BSUID), unique in the run. */
export const customerBsuid = () => `ES.${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/** Meta's time (unix seconds, as a string) `seconds` ago. */
export const secondsAgo = (seconds: number) => String(Math.floor(Date.now() / 1000) - seconds);

/** Meta's time (unix seconds, as a string) as ISO. */
export const isoOfSeconds = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();
