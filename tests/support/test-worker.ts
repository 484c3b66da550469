// The Worker as the API tests see it: the same Hono app and Durable Object as
// worker/index.ts, without the React Router build that only exists after `vite build`.
import { api } from "../../worker/api";
import type { Env } from "../../worker/env";
import { scheduled } from "../../worker/scheduled";

export { OrganizationHub } from "../../durable-objects/organization-hub";

export default {
  fetch: (request, env, ctx) => api.fetch(request, env, ctx),
  scheduled,
} satisfies ExportedHandler<Env>;
