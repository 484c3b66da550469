import type { ConversationStatus, MessageStatus, Priority } from "../../../contracts/conversations";

export const STATUS_LABELS: Record<ConversationStatus, string> = {
  open: "Abierta",
  pending: "Pendiente",
  assigned: "Asignada",
  closed: "Cerrada",
};

export const PRIORITY_LABELS: Record<Priority, string> = {
  urgent: "Urgente",
  high: "Alta",
  medium: "Media",
  low: "Baja",
};

export const STATUS_STYLES: Record<ConversationStatus, string> = {
  open: "bg-emerald-100 text-emerald-800",
  pending: "bg-amber-100 text-amber-800",
  assigned: "bg-sky-100 text-sky-800",
  closed: "bg-slate-200 text-slate-700",
};

export const MESSAGE_MARKS: Partial<Record<MessageStatus, { symbol: string; label: string }>> = {
  read: { symbol: "✓✓", label: "Leído" },
  delivered: { symbol: "✓", label: "Entregado" },
};
