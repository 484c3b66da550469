import { useState } from "react";
import { LINK_MINUTES, paymentLinkInput } from "../../../worker/payments/contract";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useCustomerChange } from "./use-customer-change";

/** "35", "35,5" or "35.50" as the API wants it ("35.50"); left as typed when it is not one. */
const amountText = (typed: string) => typed.trim().replace(",", ".");

/**
 * "Enviar enlace de pago": an amount in the organization's currency and what it is for; the
 * customer gets a "Pagar" button. The Idempotency-Key is drawn once per opening (the dialog is
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
  const [values, setValues] = useState({ amount: "", description: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | undefined>();
  const change = useCustomerChange((result) => {
    if (result.ok) return onClose();
    setErrors(result.fieldErrors);
    // A refusal of no field (no provider connected, the window closed) is said above the buttons.
    setRefusal(Object.keys(result.fieldErrors).length === 0 ? result.message : undefined);
  });

  function send(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(paymentLinkInput, {
      amount: amountText(values.amount),
      currency,
      description: values.description,
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
        <Field
          label={`Importe (${currency})`}
          required
          inputMode="decimal"
          placeholder="35,00"
          data-autofocus
          {...bind("amount")}
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
        {refusal && (
          <p role="alert" className="text-sm text-red-700">
            {refusal}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose} disabled={change.busy}>
            Cancelar
          </Button>
          <Button type="submit" disabled={change.busy}>
            {change.busy ? "Enviando..." : "Enviar enlace"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
