import { format } from "date-fns";
import { es } from "date-fns/locale";
import { lazy, Suspense, useId } from "react";
import type { Agent } from "../../../contracts/agents";
import type { Conversation, ConversationDetail } from "../../../contracts/conversations";
import { CONVERSATION_STAGES, STAGE_LABELS } from "../../../contracts/sales";
import { CustomerBookings } from "~/components/agenda/customer-bookings";
import { AssigneeSelect, LabelChips } from "~/components/team/team";
import { LabelledLine } from "~/components/ui/labelled-line";
import { useConversationWrites } from "./actions";
import { RequestPhoneButton } from "./conversation-header";
import { AgentSelect, ChoiceSelect, PrioritySelect, StatusSelect } from "./selectors";
import { billingText } from "./window-banner";

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

/** A titled part of the details. */
function Part({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2.5 p-4">
      <h2 id={id} className="font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

interface DetailsProps {
  conversation: ConversationDetail;
  agents: Agent[];
  onChange: (updated: Conversation | null) => void;
  /** On a phone, what a wide screen keeps in the header: "Pedir teléfono", person, status. */
  headerActions?: { windowOpen: boolean; onRequestPhone: () => void };
  /** For what Meta bills, as the window line counts time. */
  now: number;
  /** "Pagos": its payment links, and sending the booking form or a link. */
  payments: React.ReactNode;
  /** "Ventas y origen", loaded on its own. */
  sales: React.ReactNode;
}

/**
 * "Detalles": who the customer is, what the team sets on the conversation (stage, priority,
 * AI agent, labels, and on a phone its person and status), what Meta bills, its bookings, its
 * payments, and "Ventas y origen". A side panel on a wide screen, a sheet on a phone.
 */
export function ConversationDetails({
  conversation,
  agents,
  onChange,
  headerActions,
  now,
  payments,
  sales,
}: DetailsProps) {
  const { id, contact } = conversation;
  const {
    changeAgent,
    changeStatus,
    update: updateConversation,
    assignPerson,
    setLabels,
  } = useConversationWrites();
  return (
    <div className="divide-y divide-slate-200 [&>aside]:max-h-none [&>aside]:w-auto [&>aside]:border-0">
      <Part title="Cliente">
        <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm">
          <dt className="text-slate-600">Teléfono</dt>
          <dd className="break-words text-slate-900">
            {contact.phone_number ? `+${contact.phone_number}` : "No compartido"}
          </dd>
          {contact.username && (
            <>
              <dt className="text-slate-600">Usuario</dt>
              <dd className="break-words text-slate-900">@{contact.username}</dd>
            </>
          )}
          <dt className="text-slate-600">Primer mensaje</dt>
          <dd className="text-slate-900">
            {format(new Date(conversation.created_at), "d MMM yyyy", { locale: es })}
          </dd>
        </dl>
        {headerActions && !contact.phone_number && (
          <RequestPhoneButton
            windowOpen={headerActions.windowOpen}
            onClick={headerActions.onRequestPhone}
          />
        )}
      </Part>
      <Part title="Conversación">
        {headerActions && (
          <>
            <LabelledLine label="Estado">
              <StatusSelect
                label="Estado"
                value={conversation.status}
                className="w-full"
                onChange={async (status) => onChange(await changeStatus(id, status))}
              />
            </LabelledLine>
            <LabelledLine label="Asignado a">
              <AssigneeSelect
                label="Asignado a"
                value={conversation.assignee_id}
                className="w-full"
                onChange={async (userId) => onChange(await assignPerson(id, userId))}
              />
            </LabelledLine>
          </>
        )}
        <LabelledLine label="Etapa">
          <ChoiceSelect
            choices={CONVERSATION_STAGES}
            labels={STAGE_LABELS}
            label="Etapa"
            value={conversation.stage}
            className="w-full"
            onChange={async (stage) => onChange(await updateConversation(id, { stage }))}
          />
        </LabelledLine>
        <LabelledLine label="Prioridad">
          <PrioritySelect
            label="Prioridad"
            value={conversation.priority}
            className="w-full"
            onChange={async (priority) => onChange(await updateConversation(id, { priority }))}
          />
        </LabelledLine>
        <LabelledLine label="Agente de IA">
          <AgentSelect
            label="Agente de IA"
            value={conversation.agent_id}
            agents={agents}
            className="w-full"
            onChange={async (agentId) => onChange(await changeAgent(id, agentId))}
          />
        </LabelledLine>
        <div className="flex flex-wrap items-center gap-2">
          <LabelPicker
            value={conversation.labels}
            onChange={async (ids) => onChange(await setLabels(id, ids))}
          />
          <LabelChips labels={conversation.labels} />
        </div>
        <p className="text-xs text-slate-600">{billingText(conversation.billing, now)}</p>
      </Part>
      <CustomerBookings conversationId={id} />
      {payments}
      {sales}
    </div>
  );
}
