import type { InferResponseType } from "hono/client";
import { Link } from "react-router";
import type { Agent } from "../../../contracts/agents";
import { Button } from "~/components/ui/button";
import type { client } from "~/lib/api";
import { ModeBadge } from "./mode-select";
import { Icon } from "~/components/ui/icon";

/** An agent as `GET /agents` lists it, with its model usage totals. */
export type AgentWithUsage = InferResponseType<typeof client.agents.$get>["data"][number];
type AgentUsage = NonNullable<AgentWithUsage["usage"]>;

/** 950 → "950", 3412 → "3.4k", 2000000 → "2M". */
export function formatTokens(n: number) {
  const compact = (value: number, unit: string) => `${value.toFixed(1).replace(/\.0$/, "")}${unit}`;
  if (n >= 1_000_000) return compact(n / 1_000_000, "M");
  if (n >= 1000) return compact(n / 1000, "k");
  return String(n);
}

/** "12 respuestas · 3.4k tokens", and the failures when there were any. */
export function usageSummary(usage: AgentUsage) {
  const parts = [
    `${usage.calls} ${usage.calls === 1 ? "respuesta" : "respuestas"}`,
    `${formatTokens(usage.prompt_tokens + usage.completion_tokens)} tokens`,
  ];
  if (usage.failures > 0) parts.push(`${usage.failures} con error`);
  return parts.join(" · ");
}

interface AgentCardProps {
  agent: AgentWithUsage;
  canManage: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onTry: () => void;
}

export function AgentCard({ agent, canManage, onEdit, onDelete, onTry }: AgentCardProps) {
  const titleId = `agent-${agent.id}-name`;
  return (
    <li
      aria-labelledby={titleId}
      className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start justify-between gap-2">
        <h2 id={titleId} className="min-w-0 truncate text-lg font-semibold text-slate-900">
          {agent.name}
        </h2>
        <ActiveBadge active={agent.is_active} />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <WhatsappBadge status={agent.whatsapp_status} />
        <ModeBadge mode={agent.mode} />
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div className="min-w-0">
          <dt className="text-slate-500">Modelo</dt>
          <dd className="truncate" title={agent.model}>
            {agent.model}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Temperatura</dt>
          <dd className="tabular-nums">{agent.temperature.toFixed(1)}</dd>
        </div>
      </dl>
      {agent.usage && <p className="mt-2 text-xs text-slate-500">{usageSummary(agent.usage)}</p>}
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4">
        <Link
          to={`/chats/${agent.id}`}
          className="inline-flex items-center rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
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
            <Button
              variant="ghost"
              className="ml-auto px-2 hover:text-red-600"
              onClick={onDelete}
              aria-label={`Eliminar agente ${agent.name}`}
              title="Eliminar agente"
            >
              <TrashIcon />
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span
      className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${active ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-600"}`}
    >
      {active ? "Activo" : "Inactivo"}
    </span>
  );
}

const WHATSAPP_BADGES: Record<
  Agent["whatsapp_status"],
  { label: string; style: string; dot: string }
> = {
  connected: {
    label: "WhatsApp conectado",
    style: "bg-green-100 text-green-800",
    dot: "bg-green-600",
  },
  connecting: {
    label: "WhatsApp conectando",
    style: "bg-amber-100 text-amber-800",
    dot: "bg-amber-500",
  },
  error: { label: "WhatsApp con error", style: "bg-red-100 text-red-800", dot: "bg-red-600" },
  disconnected: {
    label: "WhatsApp desconectado",
    style: "bg-slate-100 text-slate-600",
    dot: "bg-slate-400",
  },
};

/** Computed by the server: connected when this agent answers the organization's connected number. */
function WhatsappBadge({ status }: { status: Agent["whatsapp_status"] }) {
  const badge = WHATSAPP_BADGES[status];
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ${badge.style}`}
      title={
        status === "disconnected"
          ? "Elige este agente para tu número en Configuración > Meta Business para que responda por WhatsApp."
          : undefined
      }
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${badge.dot}`} />
      {badge.label}
    </span>
  );
}

function TrashIcon() {
  return <Icon path="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" strokeWidth={1.8} />;
}
