import { Link } from "react-router";
import type { Agent } from "../../../worker/agents/contract";
import { Button } from "~/components/ui/button";

export type AgentWithUsage = Agent & {
  usage?: { calls: number; failures: number; prompt_tokens: number; completion_tokens: number };
};

const formatTokens = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

interface AgentCardProps {
  agent: AgentWithUsage;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onTry: () => void;
}

export function AgentCard({ agent, canManage, onEdit, onDelete, onTry }: AgentCardProps) {
  const connected = agent.whatsapp_status === "connected";
  return (
    <li className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-start justify-between gap-2">
        <h2 className="truncate text-lg font-semibold">{agent.name}</h2>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${agent.is_active ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-600"}`}
        >
          {agent.is_active ? "Activo" : "Inactivo"}
        </span>
      </div>
      <span
        className={`mt-2 w-fit rounded-full px-2 py-0.5 text-xs ${connected ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-600"}`}
      >
        {connected ? "WhatsApp conectado" : "WhatsApp desconectado"}
      </span>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-slate-500">Modelo</dt>
          <dd className="truncate">{agent.model}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Temperatura</dt>
          <dd>{agent.temperature}</dd>
        </div>
      </dl>
      {agent.usage && (
        <p className="mt-2 text-xs text-slate-500">
          {agent.usage.calls} respuestas ·{" "}
          {formatTokens(agent.usage.prompt_tokens + agent.usage.completion_tokens)} tokens
          {agent.usage.failures > 0 && ` · ${agent.usage.failures} con error`}
        </p>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Link
          to={`/chats/${agent.id}`}
          className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50"
        >
          Chats
        </Link>
        <Button variant="secondary" onClick={onTry}>
          Probar agente
        </Button>
        {canManage && (
          <>
            <Button variant="secondary" onClick={onEdit}>
              Editar
            </Button>
            <Button variant="ghost" onClick={onDelete} aria-label={`Eliminar agente ${agent.name}`}>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-5 w-5"
                fill="none"
                stroke="currentColor"
                strokeWidth={1.8}
              >
                <path
                  d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
