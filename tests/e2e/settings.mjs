// Settings shared by the browser tests and the server they run against (scripts/e2e-server.mjs).
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";

export const E2E_SETTINGS = {
  graphPort: 4318,
  modelPort: 4319,
  appId: GRAPH_FIXTURES.appId,
  appSecret: "e2e-app-secret",
  aiKey: "e2e-ai-key",
};
