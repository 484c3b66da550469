import { redirect } from "react-router";
import { EDITABLE_STATUSES } from "../../contracts/broadcasts";
import { type BroadcastChange } from "~/components/broadcasts/actions";
import { broadcastAction } from "./broadcasts-action";
import { BroadcastForm } from "~/components/broadcasts/broadcast-form";
import {
  readAudienceAds,
  readBroadcast,
  readLabels,
  readMarketingAllowance,
  readTemplates,
} from "~/components/broadcasts/data";
import { ManagerFormPage } from "~/components/broadcasts/form-page";
import { MarketingAllowanceNote } from "~/components/broadcasts/marketing-allowance";
import { RouteError } from "~/components/route-error";
import type { Route } from "./+types/broadcasts-edit";

export const meta = () => [{ title: "Editar difusión — Atiende" }];

const TITLE = "Editar difusión";

/**
 * The broadcast, the account's templates, the labels and the ads. One that is no longer a draft or
 * scheduled cannot change: its page opens instead.
 */
export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const id = params.broadcastId;
  const [broadcast, templates, labels, ads, allowance] = await Promise.all([
    readBroadcast(id),
    readTemplates(),
    readLabels(),
    readAudienceAds(),
    readMarketingAllowance(),
  ]);
  if (!EDITABLE_STATUSES.includes(broadcast.status)) throw redirect(`/broadcasts/${id}`);
  return { broadcast, templates, labels, ads, allowance };
}

/** Saved: back to its page, with the preview of what changed. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const result = await broadcastAction((await request.json()) as BroadcastChange);
  if (result.ok && result.broadcast) return redirect(`/broadcasts/${result.broadcast.id}`);
  return result;
}

export function ErrorBoundary() {
  return <RouteError title={TITLE} failure="No se pudo cargar la difusión" />;
}

export default function EditBroadcast({
  loaderData: { broadcast, templates, labels, ads, allowance },
}: Route.ComponentProps) {
  return (
    <ManagerFormPage back={`/broadcasts/${broadcast.id}`} backLabel={broadcast.name} title={TITLE}>
      <div className="max-w-3xl space-y-4">
        {allowance && <MarketingAllowanceNote allowance={allowance} />}
        <BroadcastForm
          key={broadcast.id}
          broadcast={broadcast}
          templates={templates}
          labels={labels}
          ads={ads}
        />
      </div>
    </ManagerFormPage>
  );
}
