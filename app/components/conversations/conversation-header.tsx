import { lazy, Suspense } from "react";
import { Link } from "react-router";
import type { Agent } from "../../../worker/agents/contract";
import type { Conversation } from "../../../worker/conversations/contract";
import { StageBadge, StageSelect } from "~/components/sales/stage";
import { AssigneeSelect, LabelChips } from "~/components/team/team";
import { assignPerson, setLabels } from "~/components/team/team-actions";
import { Button } from "~/components/ui/button";
import { changeAgent, changeStatus, updateConversation } from "./actions";
import { ContactNameEditor } from "./contact-name";
import {
  AgentSelect,
  contactHandle,
  contactLabel,
  PrioritySelect,
  StatusBadge,
  StatusSelect,
} from "./selectors";

/** The label picker brings headlessui's Listbox and its positioning: fetched once shown. */
const LazyLabelPicker = lazy(() =>
  import("~/components/team/label-picker").then((m) => ({ default: m.LabelPicker })),
);
function LabelPicker(props: Parameters<typeof LazyLabelPicker>[0]) {
  const count = props.value.length;
  return (
    <Suspense
      fallback={
        <button
          type="button"
          disabled
          className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
        >
          Etiquetas{count > 0 ? ` (${count})` : ""}
        </button>
      }
    >
      <LazyLabelPicker {...props} />
    </Suspense>
  );
}

/**
 * Who the customer is and everything a person changes about the conversation: name, status,
 * stage, priority, agent, the person holding it, labels; "Pedir teléfono" for a customer known
 * by username; the "Ventas y origen" panel's toggle. Each change's answer goes to `onChange`.
 */
export function ConversationHeader({
  conversation,
  agents,
  back,
  windowOpen,
  onRequestPhone,
  onChange,
  sales,
}: {
  conversation: Conversation;
  agents: Agent[];
  /** The inbox with its filters, for "← Conversaciones" on small screens. */
  back: string;
  windowOpen: boolean;
  onRequestPhone: () => void;
  onChange: (updated: Conversation | null) => void;
  sales: { shown: boolean; toggle: () => void };
}) {
  const { id } = conversation;
  const handle = contactHandle(conversation);
  return (
    <header className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white p-4">
      <Link
        to={back}
        className="text-sm font-medium text-emerald-800 hover:underline lg:hidden"
        aria-label="Volver a conversaciones"
      >
        ← Conversaciones
      </Link>
      <div className="min-w-48 flex-1">
        <ContactNameEditor
          name={conversation.contact_name}
          label={contactLabel(conversation)}
          onSave={async (contact_name) => onChange(await updateConversation(id, { contact_name }))}
        />
        {conversation.contact_name && handle && <p className="text-sm text-slate-500">{handle}</p>}
      </div>
      {!conversation.contact.phone_number && (
        <Button
          variant="secondary"
          disabled={!windowOpen}
          title={windowOpen ? undefined : "Solo con la ventana de 24 horas abierta"}
          onClick={onRequestPhone}
        >
          Pedir teléfono
        </Button>
      )}
      <StatusBadge status={conversation.status} />
      <StageBadge stage={conversation.stage} />
      <StatusSelect
        label="Estado"
        value={conversation.status}
        onChange={async (status) => onChange(await changeStatus(id, status))}
      />
      <StageSelect
        label="Etapa"
        value={conversation.stage}
        onChange={async (stage) => onChange(await updateConversation(id, { stage }))}
      />
      <PrioritySelect
        label="Prioridad"
        value={conversation.priority}
        onChange={async (priority) => onChange(await updateConversation(id, { priority }))}
      />
      <AgentSelect
        label="Agente asignado"
        value={conversation.agent_id}
        agents={agents}
        onChange={async (agentId) => onChange(await changeAgent(id, agentId))}
      />
      <AssigneeSelect
        label="Asignado a"
        value={conversation.assignee_id}
        onChange={async (userId) => onChange(await assignPerson(id, userId))}
      />
      <LabelPicker
        value={conversation.labels}
        onChange={async (ids) => onChange(await setLabels(id, ids))}
      />
      <LabelChips labels={conversation.labels} />
      <button
        type="button"
        aria-expanded={sales.shown}
        aria-controls="sales-panel"
        onClick={sales.toggle}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm text-slate-700 hover:bg-slate-50"
      >
        {sales.shown ? "Ocultar ventas" : "Ventas y origen"}
      </button>
    </header>
  );
}
