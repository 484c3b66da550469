import type { Broadcast, PauseReason } from "../../../contracts/broadcasts";
import { formatZoned, formatZonedTime } from "./zoned-time";

const NOTICE = "rounded-lg px-4 py-3 text-sm";

/** Why a sending broadcast waits, in the organization's clock. */
export function waitingText(waiting: NonNullable<Broadcast["waiting"]>, timeZone: string) {
  return waiting.reason === "quiet_hours"
    ? `Esperando al final del horario de descanso (${formatZonedTime(waiting.until, timeZone)})`
    : `Límite diario de mensajes de tu cuenta alcanzado: continúa el ${formatZoned(waiting.until, timeZone)}`;
}

/** A broadcast the product paused by itself, and what to do about it. */
const PAUSED_BECAUSE: Record<PauseReason, string> = {
  template_unusable:
    "En pausa: Meta ya no acepta su plantilla (se pausó, se borró o cambió). Revísala en WhatsApp Manager y reanúdala.",
  not_connected:
    "En pausa: WhatsApp se desconectó. Vuelve a conectarlo en Configuración > Meta Business y reanúdala.",
  store_full:
    "En pausa: los datos de tu organización ocupan más de 9 GB, cerca de su límite. Reanúdala cuando la retención haya liberado espacio.",
  budget:
    "En pausa: se alcanzó el presupuesto mensual de marketing. Súbelo en Configuración > Organización o reanúdala el mes que viene.",
};

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
          {broadcast.pause_reason
            ? PAUSED_BECAUSE[broadcast.pause_reason]
            : "En pausa: no se envía a nadie más hasta que la reanudes."}
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
