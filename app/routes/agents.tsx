import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import type { Agent } from "../../worker/agents/contract";
import { AgentCard, type AgentWithUsage } from "~/components/agents/agent-card";
import { AgentDialog, type AgentFormValues } from "~/components/agents/agent-dialog";
import { AgentSandbox } from "~/components/agents/agent-sandbox";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, api, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors } from "~/lib/forms";

export const meta = () => [{ title: "Agentes — Atiende" }];

export default function Agents() {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const [searchParams, setSearchParams] = useSearchParams();
  const [agents, setAgents] = useState<AgentWithUsage[] | null>(null);
  const [editing, setEditing] = useState<{ agent: Agent | null } | null>(null);
  const [deleting, setDeleting] = useState<Agent | null>(null);
  const [busy, setBusy] = useState(false);
  const [trying, setTrying] = useState<Agent | null>(null);

  const load = useCallback(async () => {
    try {
      setAgents(await api.get<AgentWithUsage[]>("/agents"));
    } catch (error) {
      setAgents([]);
      const reason = errorMessage(error);
      const noOrganization = error instanceof ApiError && error.code === "organization_not_found";
      if (!noOrganization && !reason.includes("Organization not found"))
        toast.error(`Error al cargar agentes: ${reason}`);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // The dashboard opens the new-agent dialog with ?new=1.
  useEffect(() => {
    if (searchParams.get("new") === "1" && canManage) {
      setEditing({ agent: null });
      setSearchParams({}, { replace: true });
    }
  }, [searchParams, setSearchParams, canManage]);

  async function save(values: AgentFormValues) {
    const agent = editing?.agent;
    try {
      if (agent) await api.patch(`/agents/${agent.id}`, values);
      else await api.post("/agents", values);
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
    setBusy(true);
    try {
      await api.delete(`/agents/${deleting.id}`);
      toast.success("Agente eliminado correctamente");
      setDeleting(null);
      await load();
    } catch (error) {
      toast.error("Error al eliminar agente", { description: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeader
          title="Gestión de Agentes"
          description="Agentes de IA que responden a tus clientes por WhatsApp y pasan a una persona cuando hace falta."
        />
        {canManage && <Button onClick={() => setEditing({ agent: null })}>Nuevo Agente</Button>}
      </div>
      {agents === null ? (
        <Spinner />
      ) : agents.length === 0 ? (
        <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="font-semibold">Aún no tienes agentes</h2>
          <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
            Crea tu primer agente, pruébalo aquí mismo y elígelo como agente por defecto de tu
            número en Configuración.
          </p>
          {canManage && (
            <Button className="mt-4" onClick={() => setEditing({ agent: null })}>
              Crear primer agente
            </Button>
          )}
        </section>
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
      <AgentDialog
        open={editing !== null}
        agent={editing?.agent ?? null}
        onClose={() => setEditing(null)}
        onSave={save}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Eliminar agente"
        description="¿Estás seguro de eliminar este agente?"
        confirmLabel="Eliminar"
        busyLabel="Eliminando..."
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      />
      <AgentSandbox agent={trying} onClose={() => setTrying(null)} />
    </>
  );
}
