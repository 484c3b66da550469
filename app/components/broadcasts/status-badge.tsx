import type { BroadcastStatus, RecipientState } from "../../../contracts/broadcasts";
import {
  RECIPIENT_STATE_LABELS,
  RECIPIENT_STATE_STYLES,
  STATUS_LABELS,
  STATUS_STYLES,
} from "./labels";

const BADGE = "inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium";

/** A broadcast's status in Spanish: Borrador, Programada, Enviando, En pausa... */
export function StatusBadge({ status }: { status: BroadcastStatus }) {
  return <span className={`${BADGE} ${STATUS_STYLES[status]}`}>{STATUS_LABELS[status]}</span>;
}

/** A recipient's state in Spanish: Enviado, Entregado, Leído, Fallido... */
export function RecipientStateBadge({ state }: { state: RecipientState }) {
  return (
    <span className={`${BADGE} ${RECIPIENT_STATE_STYLES[state]}`}>
      {RECIPIENT_STATE_LABELS[state]}
    </span>
  );
}
