import { useId, useRef, useState } from "react";
import { Link } from "react-router";
import type { Agent } from "../../../contracts/agents";
import type { Conversation } from "../../../contracts/conversations";
import { PRIORITY_LABELS } from "~/components/conversations/labels";
import { contactLabel } from "~/components/conversations/selectors";
import { StageBadge } from "~/components/sales/stage";
import { AssigneeBadge, LabelChips } from "~/components/team/team";
import { formatRelative } from "~/lib/format";
import { listTime } from "./list-time";
import { RowOptions, RowOptionsButton } from "./row-options";

/**
 * What a chat list says of a conversation, in two lines: who and when; what was said last,
 * who holds it and how many are unread. A third line only for what sets it apart: urgency,
 * a stage past "Nuevo", an ad, labels.
 */
function RowSummary({ conversation }: { conversation: Conversation }) {
  const { priority, stage, labels, unread_count: unread } = conversation;
  const urgent = priority === "urgent" || priority === "high";
  const fromAd = Boolean(conversation.fbclid || conversation.ctwa_clid);
  const marks = stage !== "new" || fromAd || labels.length > 0;
  return (
    <>
      <span className="flex items-baseline gap-2">
        {urgent && (
          <span className="text-red-600" title={`Prioridad ${PRIORITY_LABELS[priority]}`}>
            <span aria-hidden="true">⚠</span>
            <span className="sr-only">Prioridad {PRIORITY_LABELS[priority]}</span>
          </span>
        )}
        <span className="min-w-0 flex-1 truncate font-medium leading-6 text-slate-900">
          {contactLabel(conversation)}
        </span>
        <time
          dateTime={conversation.last_message_at}
          title={formatRelative(conversation.last_message_at)}
          className={`shrink-0 text-xs ${unread > 0 ? "font-semibold text-emerald-800" : "text-slate-500"}`}
        >
          {listTime(conversation.last_message_at)}
        </time>
      </span>
      <span className="mt-0.5 flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate text-sm text-slate-600">
          {conversation.last_message ?? "Sin mensajes"}
        </span>
        <AssigneeBadge assigneeId={conversation.assignee_id} />
        {unread > 0 && (
          <span
            className="min-w-5 shrink-0 rounded-full bg-emerald-700 px-1.5 text-center text-xs font-semibold leading-5 text-white"
            aria-label={`${unread} sin leer`}
          >
            {unread}
          </span>
        )}
      </span>
      {marks && (
        <span className="mt-1 flex flex-wrap items-center gap-1">
          {stage !== "new" && <StageBadge stage={stage} />}
          {fromAd && (
            <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-800">
              Anuncio
            </span>
          )}
          <LabelChips labels={labels} />
        </span>
      )}
    </>
  );
}

/**
 * A row of the inbox, linking to the conversation (keeping the list's filters), and "⋮" for
 * its status, assignment, stage and agent, which unfold under it: no selects in the row
 * itself.
 */
export function ConversationRow({
  conversation,
  agents,
  listSearch,
  current,
  onOpen,
  onChange,
}: {
  conversation: Conversation;
  agents: Agent[];
  listSearch: string;
  current: boolean;
  /** The row is followed: the list notes where it was, to return there. */
  onOpen: () => void;
  onChange: (updated: Conversation | null) => void;
}) {
  const who = contactLabel(conversation);
  const [options, setOptions] = useState(false);
  const optionsId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const fold = () => {
    setOptions(false);
    button.current?.focus();
  };
  return (
    <li
      className={`flex flex-wrap items-center ${current ? "bg-emerald-50" : "hover:bg-slate-50"}`}
    >
      <Link
        to={{ pathname: `/conversations/${conversation.id}`, search: listSearch }}
        aria-current={current ? "page" : undefined}
        onClick={onOpen}
        className="block min-w-0 flex-1 py-2 pl-4 pr-1"
      >
        <RowSummary conversation={conversation} />
      </Link>
      <div className="shrink-0 pr-1">
        <RowOptionsButton
          ref={button}
          who={who}
          open={options}
          controls={optionsId}
          onToggle={() => setOptions((o) => !o)}
        />
      </div>
      {options && (
        <RowOptions
          id={optionsId}
          conversation={conversation}
          who={who}
          agents={agents}
          onChange={onChange}
          onClose={fold}
        />
      )}
    </li>
  );
}
