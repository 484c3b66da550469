import type { BookingFlowState } from "../../../contracts/flows";
import { Button } from "~/components/ui/button";
import { useAuth } from "~/lib/auth";
import { useSettingsChange } from "./actions";
import { StatusSection } from "./status-section";

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
    <StatusSection
      title="Formulario de reservas de WhatsApp"
      status={flow.published ? "active" : flow.error ? "error" : "inactive"}
      description={stateText(flow, numberConnected)}
      className="max-w-3xl space-y-4"
    >
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
    </StatusSection>
  );
}
