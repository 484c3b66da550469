import { useEffect, useState } from "react";
import { Link, useFetcher, useNavigation, useSearchParams } from "react-router";
import type { Agent } from "../../contracts/agents";
import { type AgentActionResult, type AgentChange } from "~/components/agents/actions";
import { agentsClientAction } from "./agents-action";
import { AgentCard } from "~/components/agents/agent-card";
import { AgentDialog } from "~/components/agents/agent-dialog";
import { AgentSandbox } from "~/components/agents/agent-sandbox";
import { AiUsageMeter } from "~/components/agents/ai-usage";
import { AgentsEmptyState } from "~/components/agents/agents-empty-state";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import type { Route } from "./+types/agents";
import { RouteError } from "~/components/route-error";
import { revalidateUnlessOnly } from "~/lib/revalidate";
import { KNOWLEDGE_MAX_ENTRIES } from "../../contracts/knowledge";

export const meta = () => [{ title: "Agentes — Atiende" }];

const LINK_BUTTON_CLASS =
  "inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50";

/**
 * The agents and the month's AI usage, side by side. The knowledge entries (only the agent
 * dialog's 'Solo estas entradas' lists them) start loading too, but the page does not wait.
 */
export async function clientLoader() {
  // The whole list fits in one page (the organization's cap): the dialog offers every entry.
  const knowledge = data(
    client.knowledge.$get({ query: { limit: String(KNOWLEDGE_MAX_ENTRIES) } }),
  ).then((list) => list.entries);
  knowledge.catch(() => undefined); // The dialog says so if it fails; the page does not break.
  const [agents, usage] = await Promise.all([
    data(client.agents.$get()),
    // The meter stays hidden without it; the list is what the page is for.
    data(client.agents.usage.$get()).catch(() => null),
  ]);
  return { agents, usage, knowledge };
}

/** Dropping `?new=1` from the URL (below) changes nothing the page shows. */
export const shouldRevalidate = revalidateUnlessOnly("new");

/** An agent created, changed or deleted, or tried in the sandbox (agents-action.ts). */
export const clientAction = agentsClientAction;

export function ErrorBoundary() {
  return <RouteError title="Gestión de Agentes" failure="Error al cargar los agentes" />;
}

export default function Agents({ loaderData: { agents, usage, knowledge } }: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const reloading = navigation.state === "loading" && navigation.location.pathname === "/agents";
  /** The dialog: `{ agent: null }` creates, `{ agent }` edits, null is closed. */
  const [editing, setEditing] = useState<{ agent: Agent | null } | null>(null);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  const remover = useFetcher<AgentActionResult>();
  const removing = remover.state !== "idle";
  const [trying, setTrying] = useState<Agent | null>(null);

  // Deleted: the confirmation closes (the list reloads by itself after the action).
  useEffect(() => {
    if (remover.state === "idle" && remover.data?.ok) setDeleting(null);
  }, [remover.state, remover.data]);

  // The dashboard links to /agents?new=1 to open the new-agent dialog; the parameter goes away.
  useEffect(() => {
    if (searchParams.get("new") === null) return;
    if (searchParams.get("new") === "1" && canManage) setEditing({ agent: null });
    setSearchParams(
      (params) => {
        params.delete("new");
        return params;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams, canManage]);

  const openCreate = () => setEditing({ agent: null });

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeader
          title="Gestión de Agentes"
          description="Agentes de IA que responden a tus clientes por WhatsApp y pasan la conversación a una persona cuando hace falta."
        />
        <div className="flex gap-3">
          <Link to="/agents/knowledge" className={LINK_BUTTON_CLASS}>
            Conocimiento
          </Link>
          {canManage && <Button onClick={openCreate}>Nuevo Agente</Button>}
        </div>
      </div>
      <AiUsageMeter usage={usage} />

      {agents.length === 0 ? (
        <AgentsEmptyState canManage={canManage} onCreate={openCreate} />
      ) : (
        <ul
          className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-3 ${reloading ? "opacity-60" : ""}`}
          aria-label="Agentes"
          aria-busy={reloading || undefined}
        >
          {agents.map((agent) => (
            <AgentCard
              key={agent.id}
              agent={agent}
              canManage={canManage}
              onEdit={() => setEditing({ agent })}
              onDelete={() => setDeleting(agent)}
              onTry={() => setTrying(agent)}
            />
          ))}
        </ul>
      )}

      {canManage && (
        <>
          <AgentDialog
            open={editing !== null}
            agent={editing?.agent ?? null}
            knowledge={knowledge}
            onClose={() => setEditing(null)}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={deleting ? `Eliminar «${deleting.name}»` : "Eliminar agente"}
            description="¿Estás seguro de eliminar este agente?"
            confirmLabel="Eliminar"
            busyLabel="Eliminando..."
            busy={removing}
            onConfirm={() =>
              deleting &&
              remover.submit({ intent: "delete", id: deleting.id } satisfies AgentChange, {
                method: "post",
                encType: "application/json",
              })
            }
            onClose={() => setDeleting(null)}
          />
        </>
      )}
      <AgentSandbox agent={trying} onClose={() => setTrying(null)} />
    </>
  );
}
