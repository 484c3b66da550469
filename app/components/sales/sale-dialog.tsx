import { useState } from "react";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Modal } from "~/components/ui/modal";
import { Field, SelectField } from "~/components/ui/field";
import { useConversationChange } from "~/components/conversations/actions";
import { SALE_CURRENCIES, parseAmount } from "./money";

/**
 * "Registrar venta": an amount and its currency. The Idempotency-Key is drawn once per
 * opening (the component is mounted when the dialog opens), so a double click or a retry of
 * the same dialog is one sale.
 */
export function SaleDialog({
  conversationId,
  defaultCurrency,
  onClose,
  onSaved,
}: {
  conversationId: string;
  defaultCurrency: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState(defaultCurrency);
  const [error, setError] = useState<string | undefined>();
  const sale = useConversationChange();
  // From the click until the dialog closes (or the refusal is said): the route's action runs.
  const [saving, setSaving] = useState(false);
  const currencies = SALE_CURRENCIES.includes(defaultCurrency as (typeof SALE_CURRENCIES)[number])
    ? SALE_CURRENCIES
    : [defaultCurrency, ...SALE_CURRENCIES];

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const value = parseAmount(amount);
    if (value === null) return setError("Introduce un importe mayor que 0");
    setError(undefined);
    setSaving(true);
    const result = await sale.run({
      intent: "sale.create",
      conversationId,
      value,
      currency,
      key: idempotencyKey,
    });
    if (result.ok) onSaved();
    else setSaving(false);
  }

  return (
    <Modal open title="Registrar venta" onClose={onClose} busy={saving} width="sm">
      <form className="mt-4 space-y-4" onSubmit={(e) => void save(e)} noValidate>
        <Field
          label="Importe"
          required
          inputMode="decimal"
          autoFocus
          value={amount}
          error={error}
          disabled={saving}
          onChange={(e) => setAmount(e.target.value)}
        />
        <SelectField
          label="Moneda"
          value={currency}
          disabled={saving}
          options={currencies.map((c) => ({ value: c, label: c }))}
          onChange={(e) => setCurrency(e.target.value)}
        />
        <DialogActions submitLabel="Guardar" busy={saving} onCancel={onClose} />
      </form>
    </Modal>
  );
}
