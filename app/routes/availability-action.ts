/**
 * The root route's `clientAction` (decision 0145): the sidebar's "Disponible" / "Ausente", which
 * the console's layout draws on every screen. A submission reaches no layout's action, and the
 * root's module is always loaded, so the write starts at the click wherever it is made
 * (`action: "/"` without `?index` targets the root, not the landing page's index route).
 */
import type { AvailabilityChange, AvailabilityResult } from "~/components/team/actions";
import { client, data } from "~/lib/api";
import { attempt } from "~/lib/outcome";

export async function availabilityClientAction({
  request,
}: {
  request: Request;
}): Promise<AvailabilityResult> {
  const { userId, available } = (await request.json()) as AvailabilityChange;
  const member = await attempt(
    () =>
      data(
        client.organizations.members[":userId"].$patch({
          param: { userId },
          json: { available },
        }),
      ),
    { failure: "No se pudo cambiar tu disponibilidad" },
  );
  return member ? { ok: true, available: member.available } : { ok: false };
}
