// The operator's calls (`npm run stores`, /api/v1/operator).
import { env, exports } from "cloudflare:workers";
import type { StoreListing } from "../../worker/stores/contract";

/** The operator's list (`npm run stores -- list`), with the token given (the configured one). */
export async function operatorList(token = env.OPERATOR_TOKEN!, address?: string) {
  const res = await exports.default.fetch("http://localhost/api/v1/operator/stores", {
    headers: {
      Authorization: `Bearer ${token}`,
      ...(address && { "CF-Connecting-IP": address }),
    },
  });
  return { status: res.status, body: (await res.json()) as { data: StoreListing[] } };
}

/** The organization's row of the operator's list. */
export async function listedStore(organizationId: string) {
  const { body } = await operatorList();
  return body.data.find((row) => row.organization_id === organizationId);
}
