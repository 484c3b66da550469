import { Link, redirect } from "react-router";
import { broadcastAction, type BroadcastChange } from "~/components/broadcasts/actions";
import { BroadcastForm } from "~/components/broadcasts/broadcast-form";
import { readLabels, readTemplates } from "~/components/broadcasts/data";
import { ManagerOnly } from "~/components/broadcasts/manager-only";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { useAuth } from "~/lib/auth";
import type { Route } from "./+types/broadcasts-new";

export const meta = () => [{ title: "Nueva difusión — Atiende" }];

const TITLE = "Nueva difusión";

/** The account's templates and the organization's labels, side by side. */
export async function clientLoader() {
  const [templates, labels] = await Promise.all([readTemplates(), readLabels()]);
  return { templates, labels };
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

export default function NewBroadcast({ loaderData: { templates, labels } }: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  return (
    <>
      <Link to="/broadcasts" className="text-sm font-medium text-emerald-800 hover:underline">
        ← Difusiones
      </Link>
      <div className="mt-2">
        <PageHeader
          title={TITLE}
          description="Una plantilla aprobada, a quién y cuándo. Se guarda como borrador: antes de enviarla ves a cuántos clientes llega y lo que costará aproximadamente."
        />
      </div>
      {canManage ? (
        <BroadcastForm broadcast={null} templates={templates} labels={labels} />
      ) : (
        <ManagerOnly back="/broadcasts" />
      )}
    </>
  );
}
