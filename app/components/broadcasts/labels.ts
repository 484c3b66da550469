/** The Difusiones screens' words: statuses, recipient states, reasons, in Spanish. */
import { META_ERROR_TEXT } from "../../../contracts/meta-error-text";
import type {
  BroadcastCategory,
  BroadcastStatus,
  RecipientState,
  SkipReason,
} from "../../../contracts/broadcasts";

export const STATUS_LABELS: Record<BroadcastStatus, string> = {
  draft: "Borrador",
  scheduled: "Programada",
  sending: "Enviando",
  paused: "En pausa",
  completed: "Completada",
  cancelled: "Cancelada",
};

export const STATUS_STYLES: Record<BroadcastStatus, string> = {
  draft: "bg-slate-100 text-slate-700",
  scheduled: "bg-sky-100 text-sky-800",
  sending: "bg-emerald-100 text-emerald-800",
  paused: "bg-amber-100 text-amber-800",
  completed: "bg-emerald-700 text-white",
  cancelled: "bg-rose-100 text-rose-800",
};

export const CATEGORY_LABELS: Record<BroadcastCategory, string> = {
  MARKETING: "Marketing",
  UTILITY: "Utilidad",
};

export const RECIPIENT_STATE_LABELS: Record<RecipientState, string> = {
  pending: "Pendiente",
  sending: "Enviándose",
  sent: "Enviado",
  delivered: "Entregado",
  read: "Leído",
  failed: "Fallido",
  limited: "Limitado por Meta (24 h)",
  skipped: "No enviado",
  cancelled: "Cancelado",
};

export const RECIPIENT_STATE_STYLES: Record<RecipientState, string> = {
  pending: "bg-slate-100 text-slate-700",
  sending: "bg-slate-100 text-slate-700",
  sent: "bg-sky-100 text-sky-800",
  delivered: "bg-emerald-100 text-emerald-800",
  read: "bg-emerald-700 text-white",
  failed: "bg-red-100 text-red-800",
  limited: "bg-amber-100 text-amber-800",
  skipped: "bg-slate-200 text-slate-700",
  cancelled: "bg-rose-100 text-rose-800",
};

/** Why a customer is left out, as the preview and the results say it. */
export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  opted_out: "No quieren promociones",
  limited: "Limitados por Meta (24 h)",
  unreachable: "No alcanzables",
  frequency: "Ya recibieron suficientes promociones",
};

/** The same reasons, for one customer (a recipient's row). */
export const SKIP_REASON_ONE: Record<SkipReason, string> = {
  opted_out: "No quiere promociones",
  limited: "Limitado por Meta (24 h)",
  unreachable: "No alcanzable",
  frequency: "Ya recibió suficientes promociones",
};

/** Why recipients failed, by Meta's code (the server's own Spanish texts), or the product's. */
export const metaReason = (code: string) =>
  META_ERROR_TEXT[Number(code)] ??
  (code === "interrupted"
    ? "El envío se interrumpió antes de que Meta respondiera: no se reintenta."
    : /^\d+$/.test(code)
      ? `Error de Meta (código ${code})`
      : code);

/** "1 cliente", "120 clientes". */
export const customers = (n: number) => `${count(n)} ${n === 1 ? "cliente" : "clientes"}`;

const counter = new Intl.NumberFormat("es-ES");
export const count = (n: number) => counter.format(n);

/** "45 %" of `part` over `whole` (nothing over zero). */
export function percent(part: number, whole: number) {
  if (whole <= 0) return null;
  return `${Math.round((part / whole) * 100)} %`;
}

/** "España" for ES; "País desconocido" for ZZ (a customer whose country the app cannot tell). */
export function countryName(code: string) {
  if (code === "ZZ") return "País desconocido";
  try {
    return new Intl.DisplayNames(["es"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}
