import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useOrganizationSave } from "./organization-save";

interface MaxPaymentAmountFormProps {
  /** As the server keeps it (1,000 unless the organization changed it). */
  saved: number;
  currency: string;
  canEdit: boolean;
}

/**
 * The largest payment link a person (or the AI) may send, in the organization's currency
 * (`max_payment_amount`, saved as the organization's other settings are).
 */
export function MaxPaymentAmountForm({ saved, currency, canEdit }: MaxPaymentAmountFormProps) {
  const [value, setValue] = useState(String(saved));
  const { save, saving, errors } = useOrganizationSave({
    success: "Importe máximo actualizado",
    failure: "Error al guardar el importe máximo",
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    void save({ max_payment_amount: value.trim() === "" ? Number.NaN : Number(value) });
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Importe máximo de un enlace de pago"
      className="flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-end"
    >
      <Field
        label={`Importe máximo de un enlace (${currency})`}
        type="number"
        inputMode="decimal"
        min={1}
        step={0.01}
        className="sm:w-72"
        value={value}
        error={errors.max_payment_amount}
        hint="Ningún enlace de pago puede pedir más."
        disabled={!canEdit || saving}
        onChange={(e) => setValue(e.target.value)}
      />
      {canEdit && (
        <Button type="submit" disabled={saving || value === String(saved)}>
          {saving ? "Guardando..." : "Guardar importe"}
        </Button>
      )}
    </form>
  );
}
