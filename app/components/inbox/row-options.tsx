import type { Agent } from "../../../contracts/agents";
import type { Conversation } from "../../../contracts/conversations";
import { CONVERSATION_STAGES, STAGE_LABELS } from "../../../contracts/sales";
import { useConversationWrites } from "~/components/conversations/actions";
import { AgentSelect, ChoiceSelect, StatusSelect } from "~/components/conversations/selectors";
import { AssigneeSelect } from "~/components/team/team";
import { LabelledLine } from "~/components/ui/labelled-line";

/** "⋮" at the end of an inbox row: shows or hides the row's options under it. */
export function RowOptionsButton({
  who,
  open,
  controls,
  onToggle,
  ref,
}: {
  who: string;
  open: boolean;
  /** The options' id. */
  controls: string;
  onToggle: () => void;
  ref?: React.Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={ref}
      type="button"
      aria-label={`Opciones de ${who}`}
      title={`Opciones de ${who}`}
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      onClick={onToggle}
      className={`rounded-lg p-2 hover:bg-slate-100 hover:text-slate-900 ${open ? "bg-slate-100 text-slate-900" : "text-slate-500"}`}
    >
      <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
        <circle cx="12" cy="5" r="1.8" />
        <circle cx="12" cy="12" r="1.8" />
        <circle cx="12" cy="19" r="1.8" />
      </svg>
    </button>
  );
}

/**
 * A row's options, under it: its status, person, stage and agent, changed without opening
 * the conversation (the spec's "each row can have its status and assignment changed"). A
 * change applies at once and folds them away; so does Escape.
 */
export function RowOptions({
  id: optionsId,
  conversation,
  who,
  agents,
  onChange,
  onClose,
}: {
  id: string;
  conversation: Conversation;
  /** The customer, as the row names them. */
  who: string;
  agents: Agent[];
  onChange: (updated: Conversation | null) => void;
  onClose: () => void;
}) {
  const { id } = conversation;
  const {
    changeAgent,
    changeStatus,
    update: updateConversation,
    assignPerson,
  } = useConversationWrites();
  const done = (updated: Conversation | null) => {
    onChange(updated);
    onClose();
  };
  return (
    <div
      id={optionsId}
      role="group"
      aria-label={`Opciones de ${who}`}
      className="w-full space-y-2 border-t border-slate-100 bg-slate-50 px-4 py-3"
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      <LabelledLine label="Estado">
        <StatusSelect
          label={`Estado de ${who}`}
          value={conversation.status}
          className="w-full"
          onChange={async (status) => done(await changeStatus(id, status))}
        />
      </LabelledLine>
      <LabelledLine label="Persona asignada">
        <AssigneeSelect
          label={`Persona asignada a ${who}`}
          value={conversation.assignee_id}
          className="w-full"
          onChange={async (userId) => done(await assignPerson(id, userId))}
        />
      </LabelledLine>
      <LabelledLine label="Etapa">
        <ChoiceSelect
          choices={CONVERSATION_STAGES}
          labels={STAGE_LABELS}
          label={`Etapa de ${who}`}
          value={conversation.stage}
          className="w-full"
          onChange={async (stage) => done(await updateConversation(id, { stage }))}
        />
      </LabelledLine>
      <LabelledLine label="Agente">
        <AgentSelect
          label={`Agente de ${who}`}
          value={conversation.agent_id}
          agents={agents}
          className="w-full"
          onChange={async (agentId) => done(await changeAgent(id, agentId))}
        />
      </LabelledLine>
    </div>
  );
}
