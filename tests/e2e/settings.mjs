// Settings shared by the browser tests and the server they run against (scripts/e2e-server.mjs).
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";

/** Ports from E2E_PORT (default 4317): the app, then the Graph, model and Stripe fakes. */
const basePort = Number(process.env.E2E_PORT ?? 4317);

export const E2E_SETTINGS = {
  appPort: basePort,
  graphPort: basePort + 1,
  modelPort: basePort + 2,
  stripePort: basePort + 3,
  appId: GRAPH_FIXTURES.appId,
  appSecret: "e2e-app-secret",
  aiKey: "e2e-ai-key",
  /** `npm run stores` against the browser tests' server (operator-command.spec.ts). */
  operatorToken: "e2e-operator-token-0123456789abcdef",
};

/** The organization a browser test's owner (and the screenshots' clinic) creates. */
export const ORGANIZATION = {
  name: "Clínica Norte",
  industry: "Salud",
  employee_count: "11-50",
  services_offered: "Odontología",
  business_hours: "L-V 9-19",
  city: "Bilbao",
  country: "España",
  ai_use_case: "Citas",
};
