import { Link } from "react-router";
import { MAX_FOLLOW_UPS } from "../../contracts/follow-ups";
import { type FollowUpChange } from "~/components/follow-ups/actions";
import { followUpAction } from "./follow-ups-action";
import { readFollowUps, readLabels } from "~/components/follow-ups/data";
import { FollowUpCard } from "~/components/follow-ups/follow-up-card";
import { HowItWorks } from "~/components/follow-ups/how-it-works";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { useAuth } from "~/lib/auth";
import type { Route } from "./+types/follow-ups";

export const meta = () => [{ title: "Seguimientos — Atiende" }];

const TITLE = "Seguimientos";
const DESCRIPTION = "Mensajes que se envían solos cuando un cliente deja de responder a tu equipo.";

const NEW_BUTTON_CLASS =
  "inline-flex items-center justify-center rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800";

/** The rules with what each has done, and the labels their triggers name. */
export async function clientLoader() {
  const [followUps, labels] = await Promise.all([readFollowUps(), readLabels()]);
  return { followUps, labels };
}

/** A rule's switch (`enable`). */
export async function clientAction({ request }: Route.ClientActionArgs) {
  return followUpAction((await request.json()) as FollowUpChange);
}

export function ErrorBoundary() {
  return (
    <RouteError
      title={TITLE}
      description={DESCRIPTION}
      failure="No se pudieron cargar los seguimientos"
    />
  );
}

export default function FollowUps({ loaderData: { followUps, labels } }: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const full = followUps.length >= MAX_FOLLOW_UPS;

  return (
    <div className="max-w-4xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeader title={TITLE} description={DESCRIPTION} />
        {canManage && !full && followUps.length > 0 && (
          <Link to="/follow-ups/new" className={`${NEW_BUTTON_CLASS} mb-6`}>
            Nuevo seguimiento
          </Link>
        )}
      </div>
      {canManage && full && (
        <p className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Ya tienes {MAX_FOLLOW_UPS} seguimientos, el máximo: borra o cambia uno para crear otro.
        </p>
      )}
      {followUps.length === 0 ? (
        <section
          aria-labelledby="follow-ups-empty"
          className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600"
        >
          <h2 id="follow-ups-empty" className="text-base font-semibold text-slate-900">
            Aún no hay seguimientos
          </h2>
          <p className="mx-auto mt-2 max-w-lg">
            Un seguimiento vuelve a escribir al cliente que dejó de responder: por ejemplo, 2 horas
            después del último mensaje de tu equipo. Envía un texto mientras la ventana de 24 horas
            está abierta y una plantilla aprobada por Meta cuando ya se cerró.
          </p>
          {canManage ? (
            <Link to="/follow-ups/new" className={`${NEW_BUTTON_CLASS} mt-4`}>
              Nuevo seguimiento
            </Link>
          ) : (
            <p className="mt-4 text-slate-500">
              Los propietarios y administradores crean los seguimientos.
            </p>
          )}
        </section>
      ) : (
        <ul aria-label={TITLE} className="space-y-4">
          {followUps.map((rule) => (
            <FollowUpCard key={rule.id} rule={rule} labels={labels} canManage={canManage} />
          ))}
        </ul>
      )}
      <div className="mt-6">
        <HowItWorks />
      </div>
    </div>
  );
}
