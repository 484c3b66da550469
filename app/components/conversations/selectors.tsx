import type { Agent } from "../../../contracts/agents";
import {
  CONVERSATION_STATUSES,
  PRIORITIES,
  type Conversation,
  type ConversationStatus,
  type Priority,
} from "../../../contracts/conversations";
import { PRIORITY_LABELS, STATUS_LABELS, STATUS_STYLES } from "./labels";

const selectClass =
  "min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30";

/** A select over a fixed set of values (status, priority, stage) with their Spanish labels. */
export function ChoiceSelect<T extends string>({
  value,
  choices,
  labels,
  onChange,
  label,
  className = "",
}: {
  value: T;
  choices: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
  label: string;
  /** Its width where it sits (`w-full` in a panel). */
  className?: string;
}) {
  return (
    <select
      aria-label={label}
      className={`${selectClass} ${className}`}
      value={value}
      onChange={(e) => onChange(e.target.value as T)}
    >
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labels[choice]}
        </option>
      ))}
    </select>
  );
}

export const StatusSelect = (props: {
  value: ConversationStatus;
  onChange: (status: ConversationStatus) => void;
  label: string;
  className?: string;
}) => <ChoiceSelect choices={CONVERSATION_STATUSES} labels={STATUS_LABELS} {...props} />;

export const PrioritySelect = (props: {
  value: Priority;
  onChange: (priority: Priority) => void;
  label: string;
  className?: string;
}) => <ChoiceSelect choices={PRIORITIES} labels={PRIORITY_LABELS} {...props} />;

/** A select of some of the organization's own (agents, members) or none: "Sin asignar". */
export function NullableSelect({
  value,
  options,
  onChange,
  label,
  className = "",
}: {
  value: string | null;
  options: { id: string; name: string }[];
  onChange: (id: string | null) => void;
  label: string;
  className?: string;
}) {
  return (
    <select
      aria-label={label}
      className={`${selectClass} ${className}`}
      value={value ?? ""}
      onChange={(e) => onChange(e.target.value || null)}
    >
      <option value="">Sin asignar</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </select>
  );
}

export const AgentSelect = ({
  agents,
  ...props
}: {
  value: string | null;
  agents: Agent[];
  onChange: (agentId: string | null) => void;
  label: string;
  className?: string;
}) => <NullableSelect options={agents} {...props} />;

export function StatusBadge({ status }: { status: ConversationStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}

type Customer = Pick<Conversation, "contact_name" | "contact">;

/** How WhatsApp shows the customer without a name: the phone, or `@username` when it is withheld. */
export const contactHandle = ({ contact }: Customer) =>
  contact.phone_number
    ? `+${contact.phone_number}`
    : contact.username
      ? `@${contact.username}`
      : null;

export const contactLabel = (c: Customer) =>
  // The spec's last resort for the header: name, or phone (or @username), or "Usuario".
  c.contact_name || contactHandle(c) || "Usuario";
