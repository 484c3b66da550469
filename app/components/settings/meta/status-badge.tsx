/** Spec §4 "Connection status colours": connected/active green, connecting yellow, disconnected/inactive gray, error red. */
export type ConnectionStatus =
  "connected" | "active" | "connecting" | "disconnected" | "inactive" | "error";

const TONES = {
  green: { badge: "bg-emerald-100 text-emerald-800 ring-emerald-600/20", dot: "bg-emerald-500" },
  yellow: { badge: "bg-amber-100 text-amber-800 ring-amber-600/20", dot: "bg-amber-500" },
  gray: { badge: "bg-slate-100 text-slate-700 ring-slate-500/20", dot: "bg-slate-400" },
  red: { badge: "bg-red-100 text-red-800 ring-red-600/20", dot: "bg-red-500" },
} as const;

const STATUSES: Record<ConnectionStatus, { label: string; tone: keyof typeof TONES }> = {
  connected: { label: "Conectado", tone: "green" },
  active: { label: "Activo", tone: "green" },
  connecting: { label: "Conectando", tone: "yellow" },
  disconnected: { label: "Desconectado", tone: "gray" },
  inactive: { label: "Inactivo", tone: "gray" },
  error: { label: "Error", tone: "red" },
};

/** Any server status; unknown values read as disconnected. */
export function toConnectionStatus(status: string | null | undefined): ConnectionStatus {
  return status && status in STATUSES ? (status as ConnectionStatus) : "disconnected";
}

/** A status pill: the colour is backed by the status text (never colour alone); `label` is read before it by screen readers. */
export function StatusBadge({ status, label }: { status: ConnectionStatus; label?: string }) {
  const { label: text, tone } = STATUSES[status];
  const classes = TONES[tone];
  return (
    <span
      data-status={status}
      data-tone={tone}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${classes.badge}`}
    >
      <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${classes.dot}`} />
      {label && <span className="sr-only">{label}: </span>}
      {text}
    </span>
  );
}
