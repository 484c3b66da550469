import { generateKeyPairSync } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startFakeGraph } from "./fakes/graph-server.mjs";
import { startFakeModel } from "./fakes/model-server.mjs";
import { startFakeStripe } from "./fakes/stripe-server.mjs";
import { startFakeMercadoPago } from "./fakes/mercadopago-server.mjs";
import { startFakeGoogle } from "./fakes/google-server.mjs";

export const TEST_APP_SECRET = "test-app-secret";
export const TEST_AI_KEY = "test-ai-key";
export const TEST_OPERATOR_TOKEN = "test-operator-token-0123456789abcdef";

declare module "vitest" {
  export interface ProvidedContext {
    graphUrl: string;
    modelUrl: string;
    stripeUrl: string;
    mercadoPagoUrl: string;
    /** Google's OAuth server and Calendar API, one origin. */
    googleUrl: string;
    /** The booking Flow's private key (FLOWS_PRIVATE_KEY), made for this run. */
    flowsPrivateKey: string;
  }
}

/** Starts the local Meta Graph, model, Stripe and Mercado Pago fakes the workerd tests talk to over HTTP. */
export default async function setup(project: TestProject) {
  const graph = await startFakeGraph({ appSecret: TEST_APP_SECRET });
  const model = await startFakeModel({ apiKey: TEST_AI_KEY });
  project.provide("graphUrl", graph.url);
  project.provide("modelUrl", model.url);
  const stripe = await startFakeStripe();
  const mercadoPago = await startFakeMercadoPago();
  project.provide("stripeUrl", stripe.url);
  project.provide("mercadoPagoUrl", mercadoPago.url);
  const google = await startFakeGoogle();
  project.provide("googleUrl", google.url);
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  project.provide(
    "flowsPrivateKey",
    privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  );
  return async () => {
    await Promise.all([
      graph.close(),
      model.close(),
      stripe.close(),
      mercadoPago.close(),
      google.close(),
    ]);
  };
}
