import { useEffect, useState } from "react";
import type { Booking, Service } from "../../../contracts/bookings";
import { LINK_MINUTES, paymentLinkInput } from "../../../contracts/payments";
import { readBookings, readServices } from "~/components/agenda/data";
import { useOrganizationTime } from "~/components/broadcasts/organization-time";
import { formatZoned } from "~/components/broadcasts/zoned-time";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Field, SelectField } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useCustomerChange } from "./use-customer-change";

/** "35", "35,5" or "35.50" as the API wants it ("35.50"); left as typed when it is not one. */
const amountText = (typed: string) => typed.trim().replace(",", ".");

/** A booking held until it is paid, and what its link must ask (its service's deposit or price). */
interface HeldBooking {
  booking: Booking;
  amount: string;
  description: string;
}

/** The conversation's bookings awaiting payment whose service still says what to ask. */
async function readHeldBookings(conversationId: string): Promise<HeldBooking[]> {
  const [{ bookings }, services] = await Promise.all([
    readBookings({ conversation_id: conversationId }),
    readServices(),
  ]);
  const byId = new Map<string, Service>(services.map((s) => [s.id, s]));
  return bookings.flatMap((booking) => {
    const service = booking.service_id ? byId.get(booking.service_id) : undefined;
    if (booking.status !== "pending_payment" || !service) return [];
    const deposit = service.payment === "deposit";
    const amount = deposit ? service.deposit : service.price;
    if (!amount) return [];
    const description = `${deposit ? "Señal" : "Pago"}: ${booking.service_name}`;
    return [{ booking, amount, description }];
  });
}

/**
 * "Enviar enlace de pago": an amount in the organization's currency and what it is for, or a
 * booking awaiting payment (then the amount is its service's deposit or price, as the server
 * asks, and paying confirms it); the customer gets a "Pagar" button. The Idempotency-Key is drawn once per opening (the dialog is
 * mounted when it opens), so a double click or a retry is one link.
 */
export function PaymentLinkDialog({
  conversationId,
  onClose,
}: {
  conversationId: string;
  onClose: () => void;
}) {
  const currency = useAuth().organization?.currency ?? "EUR";
  const [key] = useState(() => crypto.randomUUID());
  const { timeZone } = useOrganizationTime();
  const [values, setValues] = useState({ amount: "", description: "" });
  const [held, setHeld] = useState<HeldBooking[]>([]);
  const [bookingId, setBookingId] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | undefined>();
  const change = useCustomerChange((result) => {
    if (result.ok) return onClose();
    setErrors(result.fieldErrors);
    // A refusal of no field (no provider connected, the window closed) is said above the buttons.
    setRefusal(Object.keys(result.fieldErrors).length === 0 ? result.message : undefined);
  });

  useEffect(() => {
    let current = true;
    // Without them the link is for an amount typed by hand, as before a booking exists.
    readHeldBookings(conversationId).then(
      (list) => current && setHeld(list),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [conversationId]);

  function chooseBooking(id: string) {
    setBookingId(id);
    const chosen = held.find((h) => h.booking.id === id);
    if (chosen)
      setValues({ amount: chosen.amount.replace(".", ","), description: chosen.description });
  }

  function send(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(paymentLinkInput, {
      amount: amountText(values.amount),
      currency,
      description: values.description,
      ...(bookingId && { booking_id: bookingId }),
    });
    setRefusal(undefined);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    change.submit({ intent: "payment-link.create", conversationId, values: checked.data, key });
  }

  const bind = (field: keyof typeof values) => ({
    value: values[field],
    error: errors[field],
    disabled: change.busy,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  return (
    <Modal open title="Enviar enlace de pago" onClose={onClose} busy={change.busy} width="sm">
      <form className="mt-4 space-y-4" onSubmit={send} noValidate>
        {held.length > 0 && (
          <SelectField
            label="Para la cita"
            placeholder="Ninguna: un importe libre"
            options={held.map(({ booking }) => ({
              value: booking.id,
              label: `${formatZoned(booking.start, timeZone)} · ${booking.service_name}`,
            }))}
            value={bookingId}
            disabled={change.busy}
            hint={bookingId ? "Al pagarse, la cita queda confirmada." : undefined}
            onChange={(e) => chooseBooking(e.target.value)}
          />
        )}
        <Field
          label={`Importe (${currency})`}
          required
          inputMode="decimal"
          placeholder="35,00"
          data-autofocus
          {...bind("amount")}
          readOnly={bookingId !== ""}
        />
        <Field
          label="Concepto"
          required
          maxLength={200}
          placeholder="Señal de la cita"
          hint="El cliente lo ve en la página de pago."
          {...bind("description")}
        />
        <p className="text-xs text-slate-500">
          El cliente recibe un botón «Pagar». El enlace caduca a los {LINK_MINUTES} minutos.
        </p>
        <DialogActions
          refusal={refusal}
          submitLabel="Enviar enlace"
          busyLabel="Enviando..."
          busy={change.busy}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
