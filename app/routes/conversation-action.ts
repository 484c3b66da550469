/**
 * The conversation screen's writes for bookings and payments (contract section 18), made by
 * its route's `clientAction` (decision 0105). A link sent is recorded in the live store, which
 * the details' "Pagos" read; its later changes come as `payment_update` (decision 0119).
 */
import type {
  CustomerActionResult,
  CustomerChange,
} from "~/components/conversations/customer-actions";
import { client, data } from "~/lib/api";
import { refusalOf } from "~/lib/forms";
import { live } from "~/lib/live-store";
import { toastDone, toastFailed } from "~/lib/outcome";

const conversation = client.conversations[":id"];

/** Makes the change and says how it went; a refusal brings the server's Spanish messages. */
export async function customerAction(change: CustomerChange): Promise<CustomerActionResult> {
  const param = { id: change.conversationId };
  try {
    switch (change.intent) {
      case "booking-flow.send": {
        const sent = await data(
          conversation["booking-flow"].$post({
            param,
            json: change.serviceId ? { service_id: change.serviceId } : {},
          }),
        );
        toastDone(
          sent.kind === "flow" ? "Formulario de reservas enviado" : "Horarios libres enviados",
          sent.kind === "flow"
            ? undefined
            : "El formulario no está publicado: el cliente recibió una lista de horarios.",
        );
        break;
      }
      case "payment-link.create": {
        const payment = await data(
          conversation["payment-links"].$post({
            param,
            json: change.values,
            header: { "idempotency-key": change.key },
          }),
        );
        live.payment(payment);
        toastDone("Enlace de pago enviado");
        break;
      }
    }
    return { ok: true, intent: change.intent };
  } catch (error) {
    toastFailed(
      change.intent === "booking-flow.send"
        ? "No se pudo enviar la reserva"
        : "No se pudo enviar el enlace de pago",
      error,
    );
    return { ...refusalOf(error), intent: change.intent };
  }
}

/** The route's action: the change the details sent as JSON. */
export async function conversationClientAction({ request }: { request: Request }) {
  return customerAction((await request.json()) as CustomerChange);
}
