import { Link } from "react-router";
import type { TrackingSession } from "../../../contracts/tracking";
import { formatRelative } from "~/lib/format";

export function TrackingSessionCard({
  session,
}: {
  session: Pick<TrackingSession, "tracking_params" | "created_at">;
}) {
  const facts = [
    ["Fuente", session.tracking_params.utm_source ?? "Directo"],
    ["Campaña", session.tracking_params.utm_campaign ?? "N/A"],
    ["Inicio", formatRelative(session.created_at)],
  ] as const;
  return (
    <section
      aria-labelledby="tracking-session-title"
      className="mb-6 rounded-xl border border-emerald-200 bg-emerald-50 p-5"
    >
      <h2 id="tracking-session-title" className="font-semibold text-emerald-900">
        Sesión de tracking activa
      </h2>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-emerald-800">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function StatCard({
  label,
  value,
  to,
}: {
  label: string;
  value: string | number;
  to?: string;
}) {
  const body = (
    <>
      <span className="text-sm text-slate-600">{label}</span>
      <span className="mt-1 block text-3xl font-bold text-slate-900">{value}</span>
    </>
  );
  const className = "block rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
  return to ? (
    <Link to={to} className={`${className} hover:border-emerald-400`}>
      {body}
    </Link>
  ) : (
    <div className={className}>{body}</div>
  );
}

export /** The month's cost in the organization's currency, or a dash while Meta's figures are unknown. */
function messageCostText(cost: { total: number | null; currency: string } | null) {
  if (cost?.total == null) return "—";
  return new Intl.NumberFormat("es-ES", { style: "currency", currency: cost.currency }).format(
    cost.total,
  );
}

const QUICK_LINKS = [
  { to: "/conversations", label: "Conversaciones", text: "Atiende a tus clientes de WhatsApp" },
  { to: "/agents?new=1", label: "Nuevo agente", text: "Crea un agente de IA" },
  { to: "/tracking", label: "Analytics", text: "Sesiones, conversiones y campañas" },
  { to: "/settings", label: "Configuración", text: "Meta Business, usuario y organización" },
] as const;

/** Where a new organization goes next. */
export function QuickLinks() {
  return (
    <section aria-labelledby="quick-links" className="mt-8">
      <h2 id="quick-links" className="mb-3 text-lg font-semibold">
        Accesos rápidos
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {QUICK_LINKS.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-400 hover:shadow"
            >
              <span className="font-semibold text-slate-900">{link.label}</span>
              <span className="mt-1 block text-sm text-slate-600">{link.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
