import { useEffect, useState } from "react";
import type { Service } from "../../../contracts/bookings";
import { readServices } from "~/components/agenda/data";
import { DialogActions } from "~/components/ui/dialog-actions";
import { SelectField } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { useCustomerChange } from "./use-customer-change";

/**
 * "Enviar reserva": WhatsApp's booking form, opened at a service when one is chosen; where the
 * form is not published the customer gets the next free slots as a list instead.
 */
export function SendBookingDialog({
  conversationId,
  onClose,
}: {
  conversationId: string;
  onClose: () => void;
}) {
  const [services, setServices] = useState<Service[] | null>(null);
  const [serviceId, setServiceId] = useState("");
  const [error, setError] = useState<string | undefined>();
  const change = useCustomerChange((result) => (result.ok ? onClose() : setError(result.message)));

  useEffect(() => {
    let current = true;
    // Without the list the customer still chooses the service in the form.
    readServices().then(
      (list) => current && setServices(list.filter((s) => s.active)),
      () => current && setServices([]),
    );
    return () => {
      current = false;
    };
  }, []);

  function send(event: React.FormEvent) {
    event.preventDefault();
    setError(undefined);
    change.submit({ intent: "booking-flow.send", conversationId, serviceId: serviceId || null });
  }

  return (
    <Modal open title="Enviar reserva" onClose={onClose} busy={change.busy} width="sm">
      <form className="mt-4 space-y-4" onSubmit={send} noValidate>
        <p className="text-sm text-slate-600">
          El cliente recibe un formulario para elegir día y hora entre los horarios libres.
        </p>
        <SelectField
          label="Servicio (opcional)"
          placeholder={services === null ? "Cargando servicios..." : "Que lo elija el cliente"}
          options={(services ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={serviceId}
          disabled={services === null || change.busy}
          onChange={(e) => setServiceId(e.target.value)}
        />
        <DialogActions
          refusal={error}
          submitLabel="Enviar"
          busyLabel="Enviando..."
          busy={change.busy}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
