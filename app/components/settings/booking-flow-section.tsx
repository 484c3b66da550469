import type { BookingFlowState } from "../../../worker/flows/contract";
import { Button } from "~/components/ui/button";
import { useAuth } from "~/lib/auth";
import { useSettingsChange } from "./actions";
import { StatusBadge } from "./meta/status-badge";

interface BookingFlowSectionProps {
  flow: BookingFlowState;
  /** The Flow lives on the connected number: without one there is nothing to register. */
  numberConnected: boolean;
}

/** What the state of the Flow means for the customer, in a sentence. */
function stateText(flow: BookingFlowState, numberConnected: boolean) {
  if (!numberConnected) return "Conecta un número de WhatsApp para publicar el formulario.";
  if (flow.published)
    return "Publicado: «Enviar reserva» abre en WhatsApp un formulario para elegir servicio, día y hora.";
  return "Sin publicar: «Enviar reserva» manda en su lugar una lista con los próximos horarios libres.";
}

/**
 * Configuración → Agenda y cobros: the booking Flow (WhatsApp's own form) on the connected
 * number, whether it is published and why not; owners and admins register it again once
 * they fixed what its error says.
 */
export function BookingFlowSection({ flow, numberConnected }: BookingFlowSectionProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const change = useSettingsChange();
  return (
    <section
      aria-labelledby="booking-flow-title"
      className="max-w-3xl space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <header>
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="booking-flow-title" className="font-semibold text-slate-900">
            Formulario de reservas de WhatsApp
          </h2>
          <StatusBadge
            status={flow.published ? "active" : flow.error ? "error" : "inactive"}
            label="Estado"
          />
        </div>
        <p className="mt-1 text-sm text-slate-600">{stateText(flow, numberConnected)}</p>
      </header>
      {flow.error && (
        <p role="status" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
          <span className="font-medium">Último intento: </span>
          {flow.error}
        </p>
      )}
      {canManage && numberConnected && (
        <Button
          variant="secondary"
          disabled={change.busy}
          onClick={() => void change.submit({ intent: "booking-flow.register" })}
        >
          {change.busy
            ? "Publicando..."
            : flow.published
              ? "Volver a publicar"
              : "Registrar y publicar"}
        </Button>
      )}
    </section>
  );
}
