import { Link, useNavigation } from "react-router";
import { BroadcastsTable } from "~/components/broadcasts/broadcasts-table";
import { useOrganizationTime } from "~/components/broadcasts/organization-time";
import { readBroadcasts, useBroadcastList } from "~/components/broadcasts/use-broadcast-list";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { useAuth } from "~/lib/auth";
import { live } from "~/lib/live-store";
import type { Route } from "./+types/broadcasts";

export const meta = () => [{ title: "Difusiones — Atiende" }];

const TITLE = "Difusiones";
const DESCRIPTION =
  "Plantillas aprobadas enviadas a grupos de clientes, con sus entregas, respuestas y ventas.";

const NEW_BUTTON_CLASS =
  "inline-flex items-center justify-center rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800";

/** The newest broadcasts, and the live store's mark: events after it are laid over them. */
export async function clientLoader() {
  const asked = live.mark();
  const page = await readBroadcasts();
  return { page, asked };
}

export function ErrorBoundary() {
  return (
    <RouteError
      title={TITLE}
      description={DESCRIPTION}
      failure="No se pudieron cargar las difusiones"
    />
  );
}

export default function Broadcasts({ loaderData: loaded }: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const { timeZone, currency } = useOrganizationTime();
  const { list, hasMore, loadingMore, loadMore } = useBroadcastList(loaded);
  const navigation = useNavigation();
  const reloading =
    navigation.state === "loading" && navigation.location.pathname === "/broadcasts";

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeader title={TITLE} description={DESCRIPTION} />
        {canManage && (
          <Link to="/broadcasts/new" className={`${NEW_BUTTON_CLASS} mb-6`}>
            Nueva difusión
          </Link>
        )}
      </div>
      {list.length === 0 ? (
        <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
          <h2 className="text-base font-semibold text-slate-900">Aún no hay difusiones</h2>
          <p className="mx-auto mt-2 max-w-lg">
            Elige a quién escribir (por etiqueta, etapa o fecha de su último mensaje), una plantilla
            aprobada por Meta y cuándo enviarla. Antes de enviarla verás a cuántos clientes llega y
            cuánto costará aproximadamente.
          </p>
          {canManage ? (
            <Link to="/broadcasts/new" className={`${NEW_BUTTON_CLASS} mt-4`}>
              Crear la primera difusión
            </Link>
          ) : (
            <p className="mt-4 text-slate-500">
              Los propietarios y administradores crean las difusiones.
            </p>
          )}
        </section>
      ) : (
        <>
          <BroadcastsTable
            broadcasts={list}
            timeZone={timeZone}
            currency={currency}
            busy={reloading}
          />
          {hasMore && (
            <div className="mt-4">
              <Button variant="secondary" disabled={loadingMore} onClick={() => void loadMore()}>
                {loadingMore ? "Cargando..." : "Cargar más"}
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}
