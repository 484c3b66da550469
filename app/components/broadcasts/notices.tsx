import type { Broadcast } from "../../../worker/broadcasts/contract";
import { formatZoned, formatZonedTime } from "./zoned-time";

const NOTICE = "rounded-lg px-4 py-3 text-sm";

/** Why a sending broadcast waits, in the organization's clock. */
export function waitingText(waiting: NonNullable<Broadcast["waiting"]>, timeZone: string) {
  return waiting.reason === "quiet_hours"
    ? `Esperando al final del horario de descanso (${formatZonedTime(waiting.until, timeZone)})`
    : `Límite diario de mensajes de tu cuenta alcanzado: continúa el ${formatZoned(waiting.until, timeZone)}`;
}

/**
 * What the broadcast's page says above its figures: why it waits, that it is paused or
 * scheduled, and that Meta's Marketing Messages API was not available (said once).
 */
export function BroadcastNotices({
  broadcast,
  timeZone,
}: {
  broadcast: Broadcast;
  timeZone: string;
}) {
  const { status, waiting, fell_back_at: fellBack, send_at: sendAt } = broadcast;
  return (
    <div className="space-y-2 empty:hidden" aria-live="polite">
      {status === "sending" && waiting && (
        <p className={`${NOTICE} bg-amber-50 text-amber-900`}>{waitingText(waiting, timeZone)}</p>
      )}
      {status === "paused" && (
        <p className={`${NOTICE} bg-amber-50 text-amber-900`}>
          En pausa: no se envía a nadie más hasta que la reanudes.
        </p>
      )}
      {status === "scheduled" && sendAt && (
        <p className={`${NOTICE} bg-sky-50 text-sky-900`}>
          Se enviará el {formatZoned(sendAt, timeZone)} ({timeZone}). Hasta entonces puedes
          editarla, enviarla ya o cancelarla.
        </p>
      )}
      {fellBack && (
        <p className={`${NOTICE} bg-slate-100 text-slate-800`}>
          Tu cuenta no está incorporada a la API de Marketing Messages de Meta: se envió por la API
          normal.
        </p>
      )}
    </div>
  );
}
