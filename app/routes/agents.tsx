import { useCallback, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { Agent } from "../../worker/agents/contract";
import { AgentCard, type AgentWithUsage } from "~/components/agents/agent-card";
import { AgentDialog, type AgentFormValues } from "~/components/agents/agent-dialog";
import { AgentSandbox } from "~/components/agents/agent-sandbox";
import { AiUsageMeter } from "~/components/agents/ai-usage";
import { AgentsEmptyState } from "~/components/agents/agents-empty-state";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, api, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors } from "~/lib/forms";

export const meta = () => [{ title: "Agentes — Atiende" }];

const LINK_BUTTON_CLASS =
  "inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50";

/** A user without an organization sees onboarding instead: no toast for that. */
const isMissingOrganization = (error: unknown, reason: string) =>
  (error instanceof ApiError && error.code === "organization_not_found") ||
  reason.includes("Organization not found");

export default function Agents() {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const [searchParams, setSearchParams] = useSearchParams();
  const [agents, setAgents] = useState<AgentWithUsage[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  /** The dialog: `{ agent: null }` creates, `{ agent }` edits, null is closed. */
  const [editing, setEditing] = useState<{ agent: Agent | null } | null>(null);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  const [removing, setRemoving] = useState(false);
  const [trying, setTrying] = useState<Agent | null>(null);

  const load = useCallback(async () => {
    try {
      setAgents(await api.get<AgentWithUsage[]>("/agents"));
      setLoadFailed(false);
    } catch (error) {
      const reason = errorMessage(error);
      setAgents((current) => current ?? []);
      setLoadFailed(true);
      if (!isMissingOrganization(error, reason)) toast.error(`Error al cargar agentes: ${reason}`);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

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

  async function save(values: AgentFormValues) {
    const agent = editing?.agent ?? null;
    try {
      if (agent) await api.patch<Agent>(`/agents/${agent.id}`, values);
      else await api.post<Agent>("/agents", { ...values, is_active: true });
      toast.success(agent ? "Agente actualizado correctamente" : "Agente creado correctamente");
      setEditing(null);
      await load();
      return null;
    } catch (error) {
      toast.error(agent ? "Error al actualizar agente" : "Error al crear agente", {
        description: errorMessage(error),
      });
      return serverFieldErrors(error);
    }
  }

  async function remove() {
    if (!deleting) return;
    setRemoving(true);
    try {
      await api.delete(`/agents/${deleting.id}`);
      toast.success("Agente eliminado correctamente");
      setDeleting(null);
      await load();
    } catch (error) {
      toast.error("Error al eliminar agente", { description: errorMessage(error) });
    } finally {
      setRemoving(false);
    }
  }

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
      <AiUsageMeter />

      {agents === null ? (
        <Spinner />
      ) : agents.length === 0 && loadFailed ? (
        <section className="rounded-xl border border-slate-200 bg-white p-8 text-center">
          <p className="text-sm text-slate-600">No se pudieron cargar los agentes.</p>
          <Button variant="secondary" className="mt-4" onClick={() => void load()}>
            Reintentar
          </Button>
        </section>
      ) : agents.length === 0 ? (
        <AgentsEmptyState canManage={canManage} onCreate={openCreate} />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Agentes">
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
            onClose={() => setEditing(null)}
            onSave={save}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={deleting ? `Eliminar «${deleting.name}»` : "Eliminar agente"}
            description="¿Estás seguro de eliminar este agente?"
            confirmLabel="Eliminar"
            busyLabel="Eliminando..."
            busy={removing}
            onConfirm={() => void remove()}
            onClose={() => setDeleting(null)}
          />
        </>
      )}
      <AgentSandbox agent={trying} onClose={() => setTrying(null)} />
    </>
  );
}
