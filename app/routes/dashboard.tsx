import { format, startOfMonth } from "date-fns";
import { Link } from "react-router";
import { contactLabel } from "~/components/conversations/selectors";
import {
  messageCostText,
  QuickLinks,
  StatCard,
  TrackingSessionCard,
} from "~/components/dashboard/cards";
import type { OnboardingValues, OrganizationCreation } from "~/components/onboarding-wizard";
import { PageHeader } from "~/components/page-header";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { refusalOf } from "~/lib/forms";
import { toastDone, toastFailed } from "~/lib/outcome";
import { formatRelative } from "~/lib/format";
import { TRACKING_SESSION_KEY } from "~/lib/tracking";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveEvent } from "~/lib/use-live";
import { RouteError } from "~/components/route-error";
import type { Route } from "./+types/dashboard";

export const meta = () => [{ title: "Dashboard — Atiende" }];

const RECENT_CONVERSATIONS = 5;
const AGENTS_SHOWN = 3;

/** The console's own visit, when it arrived with ad parameters (app/lib/tracking.ts). */
async function activeTrackingSession() {
  const id = localStorage.getItem(TRACKING_SESSION_KEY);
  if (!id) return null;
  return data(client.tracking.sessions[":id"].$get({ param: { id } })).catch(() => null);
}

/** What this month's WhatsApp messages cost, as Meta reports it; null when it cannot be read. */
async function monthMessageCost() {
  const today = new Date();
  const query = {
    date_from: format(startOfMonth(today), "yyyy-MM-dd"),
    date_to: format(today, "yyyy-MM-dd"),
  };
  return data(client.tracking["message-costs"].$get({ query })).catch(() => null);
}

/**
 * The figures, the newest open conversations and the agents, side by side. A user without an
 * organization sees onboarding instead of this page (the console layout), yet this loader still
 * runs: the server's "no organization" answer is then no data, not a failure.
 */
export async function clientLoader() {
  try {
    const [stats, recent, agents, trackingSession, messageCost] = await Promise.all([
      data(client.conversations.stats.$get()),
      data(
        client.conversations.$get({
          query: { status: "open", limit: String(RECENT_CONVERSATIONS) },
        }),
      ),
      data(client.agents.$get()),
      activeTrackingSession(),
      monthMessageCost(),
    ]);
    return { stats, recent, agents, trackingSession, messageCost };
  } catch (error) {
    if (error instanceof ApiError && error.code === "organization_not_found") return null;
    throw error;
  }
}

/**
 * Onboarding's one write (decision 0105): the console layout shows the wizard on this screen
 * to a user without an organization, and it creates the organization here; the router then
 * reads this screen's data again, now the organization's.
 */
export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<OrganizationCreation> {
  const values = (await request.json()) as OnboardingValues;
  try {
    await client.organizations.$post({ json: values });
  } catch (error) {
    toastFailed("Error al crear la organización", error);
    return refusalOf(error);
  }
  toastDone("¡Organización creada exitosamente!");
  return { ok: true };
}

export function ErrorBoundary() {
  return <RouteError title="Dashboard" failure="Error al cargar las conversaciones" />;
}

export default function Dashboard({ loaderData: summary }: Route.ComponentProps) {
  const { user, organization } = useAuth();
  // The figures are counted by the server: a burst of events reloads them once.
  const reload = useCoalescedRevalidate();
  useRealtimeConnected(reload);
  useLiveEvent("new_message", reload);
  useLiveEvent("conversation_update", reload);

  // Only while onboarding hands over (the wizard reloads this page's data).
  if (!summary) return <Spinner />;
  const activeAgents = summary.agents.filter((a) => a.is_active).length;

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Hola, ${user!.full_name}. Este es el resumen de ${organization!.name}.`}
      />
      {summary.trackingSession && <TrackingSessionCard session={summary.trackingSession} />}
      <section aria-label="Resumen" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <StatCard
          label="Conversaciones abiertas"
          value={summary.stats.by_status.open}
          to="/conversations"
        />
        <StatCard label="Agentes activos" value={activeAgents} />
        <StatCard label="Agentes en total" value={summary.agents.length} to="/agents" />
        <StatCard
          label="Coste de mensajes este mes"
          value={messageCostText(summary.messageCost)}
          to="/tracking?tab=anuncios"
        />
        <StatCard label="Analytics" value="Ver →" to="/tracking" />
      </section>

      <div className="mt-8 grid gap-6 lg:grid-cols-2">
        <section
          aria-labelledby="recent-title"
          className="rounded-xl border border-slate-200 bg-white p-5"
        >
          <h2 id="recent-title" className="font-semibold">
            Conversaciones abiertas recientes
          </h2>
          {summary.recent.conversations.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No hay conversaciones abiertas.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100">
              {summary.recent.conversations.map((c) => (
                <li key={c.id}>
                  <Link
                    to={`/conversations/${c.id}`}
                    className="flex items-center justify-between gap-3 py-2 hover:text-emerald-700"
                  >
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{contactLabel(c)}</span>
                      <span className="block truncate text-xs text-slate-500">
                        {formatRelative(c.last_message_at)}
                      </span>
                    </span>
                    {c.unread_count > 0 && (
                      <span className="rounded-full bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white">
                        {c.unread_count}
                      </span>
                    )}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section
          aria-labelledby="agents-title"
          className="rounded-xl border border-slate-200 bg-white p-5"
        >
          <h2 id="agents-title" className="font-semibold">
            Agentes de IA
          </h2>
          {summary.agents.length === 0 ? (
            <Link
              to="/agents?new=1"
              className="mt-3 inline-block rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white"
            >
              Crear primer agente
            </Link>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100">
              {summary.agents.slice(0, AGENTS_SHOWN).map((agent) => (
                <li key={agent.id} className="flex items-center justify-between gap-3 py-2">
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{agent.name}</span>
                    <span className="block text-xs text-slate-500">
                      {agent.model.split("/")[1]} · temperatura {agent.temperature}
                    </span>
                  </span>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs ${agent.is_active ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-600"}`}
                  >
                    {agent.is_active ? "Activo" : "Inactivo"}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <QuickLinks />
    </>
  );
}
