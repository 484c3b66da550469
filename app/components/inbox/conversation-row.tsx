import { Link } from "react-router";
import type { Agent } from "../../../worker/agents/contract";
import type { Conversation } from "../../../worker/conversations/contract";
import { changeAgent, changeStatus, updateConversation } from "~/components/conversations/actions";
import { PRIORITY_LABELS } from "~/components/conversations/labels";
import { AgentSelect, contactLabel, StatusSelect } from "~/components/conversations/selectors";
import { StageBadge, StageSelect } from "~/components/sales/stage";
import { AssigneeBadge, AssigneeSelect, LabelChips } from "~/components/team/team";
import { assignPerson } from "~/components/team/team-actions";
import { formatRelative } from "~/lib/format";

/** One conversation of the inbox: who, what they said last, when, and its marks. */
function RowSummary({ conversation }: { conversation: Conversation }) {
  const urgent = conversation.priority === "urgent" || conversation.priority === "high";
  return (
    <>
      <span className="flex flex-wrap items-center gap-2">
        <AssigneeBadge assigneeId={conversation.assignee_id} />
        <span className="truncate font-medium text-slate-900">{contactLabel(conversation)}</span>
        {urgent && (
          <span
            className="text-red-600"
            title={`Prioridad ${PRIORITY_LABELS[conversation.priority]}`}
          >
            <span aria-hidden="true">⚠</span>
            <span className="sr-only">Prioridad {PRIORITY_LABELS[conversation.priority]}</span>
          </span>
        )}
        <StageBadge stage={conversation.stage} />
        <LabelChips labels={conversation.labels} />
        {(conversation.fbclid || conversation.ctwa_clid) && (
          <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-800">
            Anuncio
          </span>
        )}
        {conversation.unread_count > 0 && (
          <span
            className="rounded-full bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white"
            aria-label={`${conversation.unread_count} sin leer`}
          >
            {conversation.unread_count}
          </span>
        )}
      </span>
      <span className="mt-1 block truncate text-sm text-slate-600">
        {conversation.last_message ?? "Sin mensajes"}
      </span>
      <span className="mt-1 block text-xs text-slate-500">
        {formatRelative(conversation.last_message_at)}
      </span>
    </>
  );
}

/**
 * A row of the inbox, linking to the conversation (keeping the list's filters), with its
 * status, stage, agent and person to change in place, unless the conversation is open beside
 * the list (its header holds them then). On a phone the selects share the row's width.
 */
export function ConversationRow({
  conversation,
  agents,
  listSearch,
  current,
  withSelects,
  onChange,
}: {
  conversation: Conversation;
  agents: Agent[];
  listSearch: string;
  current: boolean;
  withSelects: boolean;
  onChange: (updated: Conversation | null) => void;
}) {
  const who = contactLabel(conversation);
  const { id } = conversation;
  return (
    <li
      className={`flex flex-col gap-3 p-4 sm:flex-row sm:items-center ${current ? "bg-emerald-50" : ""}`}
    >
      <Link
        to={{ pathname: `/conversations/${id}`, search: listSearch }}
        aria-current={current ? "page" : undefined}
        className="min-w-0 flex-1"
      >
        <RowSummary conversation={conversation} />
      </Link>
      {withSelects && (
        <div className="grid grid-cols-2 gap-2 *:w-full *:min-w-0 sm:flex sm:flex-wrap sm:*:w-auto">
          <StatusSelect
            label={`Estado de ${who}`}
            value={conversation.status}
            onChange={async (status) => onChange(await changeStatus(id, status))}
          />
          <StageSelect
            label={`Etapa de ${who}`}
            value={conversation.stage}
            onChange={async (stage) => onChange(await updateConversation(id, { stage }))}
          />
          <AgentSelect
            label={`Agente de ${who}`}
            value={conversation.agent_id}
            agents={agents}
            onChange={async (agentId) => onChange(await changeAgent(id, agentId))}
          />
          <AssigneeSelect
            label={`Persona asignada a ${who}`}
            value={conversation.assignee_id}
            onChange={async (userId) => onChange(await assignPerson(id, userId))}
          />
        </div>
      )}
    </li>
  );
}
