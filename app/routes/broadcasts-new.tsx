import { redirect } from "react-router";
import { type BroadcastChange } from "~/components/broadcasts/actions";
import { broadcastAction } from "./broadcasts-action";
import { BroadcastForm } from "~/components/broadcasts/broadcast-form";
import {
  readAudienceAds,
  readLabels,
  readMarketingAllowance,
  readTemplates,
} from "~/components/broadcasts/data";
import { ManagerFormPage } from "~/components/broadcasts/form-page";
import { MarketingAllowanceNote } from "~/components/broadcasts/marketing-allowance";
import { RouteError } from "~/components/route-error";
import type { Route } from "./+types/broadcasts-new";

export const meta = () => [{ title: "Nueva difusión — Atiende" }];

const TITLE = "Nueva difusión";

/** The account's templates, the organization's labels and its ads, side by side. */
export async function clientLoader() {
  const [templates, labels, ads, allowance] = await Promise.all([
    readTemplates(),
    readLabels(),
    readAudienceAds(),
    readMarketingAllowance(),
  ]);
  return { templates, labels, ads, allowance };
}

/** Saved as a draft: its page opens, with the preview and the button that sends it. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const result = await broadcastAction((await request.json()) as BroadcastChange);
  if (result.ok && result.broadcast) return redirect(`/broadcasts/${result.broadcast.id}`);
  return result;
}

export function ErrorBoundary() {
  return <RouteError title={TITLE} failure="No se pudo preparar el formulario" />;
}

export default function NewBroadcast({
  loaderData: { templates, labels, ads, allowance },
}: Route.ComponentProps) {
  return (
    <ManagerFormPage
      back="/broadcasts"
      backLabel="Difusiones"
      title={TITLE}
      description="Una plantilla aprobada, a quién y cuándo. Se guarda como borrador: antes de enviarla ves a cuántos clientes llega y lo que costará aproximadamente."
    >
      <div className="max-w-3xl space-y-4">
        {allowance && <MarketingAllowanceNote allowance={allowance} />}
        <BroadcastForm broadcast={null} templates={templates} labels={labels} ads={ads} />
      </div>
    </ManagerFormPage>
  );
}
