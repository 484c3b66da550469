import { useState } from "react";
import { serviceInput, SERVICE_PAYMENTS, type Service } from "../../../contracts/bookings";
import type { Member } from "../../../contracts/members";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Field, SelectField } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import { validate, type FieldErrors } from "~/lib/forms";
import type { ServiceBody } from "./actions";
import { PAYMENT_LABELS } from "./labels";
import { useAgendaChange } from "./use-agenda-change";

const amount = (text: string) => (text.trim() === "" ? null : text.trim());

/** A service's form as text, from the service (or the organization's currency for a new one). */
const formOf = (service: Service | null, currency: string) => ({
  name: service?.name ?? "",
  duration_minutes: String(service?.duration_minutes ?? 30),
  buffer_minutes: String(service?.buffer_minutes ?? 0),
  price: service?.price ?? "",
  currency: service?.currency ?? currency,
  payment: service?.payment ?? "none",
  deposit: service?.deposit ?? "",
  staff_user_ids: service?.staff_user_ids ?? [],
  active: service?.active ?? true,
});

/**
 * "Nuevo servicio" or "Editar servicio": name, duration, buffer, price and currency, what is
 * charged ahead (nothing, a deposit or all), who performs it and whether it is offered. Checked
 * with the API's own schema before it is sent; the API's refusals land on their fields.
 */
export function ServiceDialog({
  service,
  members,
  currency,
  onClose,
}: {
  service: Service | null;
  members: Member[];
  currency: string;
  onClose: () => void;
}) {
  const [values, setValues] = useState(() => formOf(service, currency));
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useAgendaChange((result) =>
    result.ok ? onClose() : setErrors(result.fieldErrors),
  );

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const body: ServiceBody = {
      name: values.name,
      duration_minutes: Number(values.duration_minutes),
      buffer_minutes: Number(values.buffer_minutes),
      price: amount(values.price),
      currency: values.currency,
      payment: values.payment,
      deposit: values.payment === "deposit" ? amount(values.deposit) : null,
      staff_user_ids: values.staff_user_ids,
      active: values.active,
    };
    const checked = validate(serviceInput, body);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    void change.submit(
      service
        ? { intent: "service.update", id: service.id, values: body }
        : { intent: "service.create", values: body },
    );
  }

  const bind = (
    field: "name" | "duration_minutes" | "buffer_minutes" | "price" | "currency" | "deposit",
  ) => ({
    value: values[field],
    error: errors[field],
    disabled: change.busy,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });
  const toggleStaff = (userId: string, on: boolean) =>
    setValues((v) => ({
      ...v,
      staff_user_ids: on
        ? [...v.staff_user_ids, userId]
        : v.staff_user_ids.filter((id) => id !== userId),
    }));

  return (
    <Modal
      open
      title={service ? "Editar servicio" : "Nuevo servicio"}
      onClose={onClose}
      busy={change.busy}
      width="lg"
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <Field label="Nombre" required maxLength={120} {...bind("name")} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Duración (minutos)"
            type="number"
            min={5}
            step={5}
            required
            {...bind("duration_minutes")}
          />
          <Field
            label="Margen después (minutos)"
            type="number"
            min={0}
            step={5}
            hint="Tiempo libre tras cada cita antes de la siguiente."
            {...bind("buffer_minutes")}
          />
          <Field label="Precio" inputMode="decimal" placeholder="35.00" {...bind("price")} />
          <Field label="Moneda" maxLength={3} {...bind("currency")} />
          <SelectField
            label="Cobro por adelantado"
            value={values.payment}
            disabled={change.busy}
            error={errors.payment}
            onChange={(e) =>
              setValues((v) => ({ ...v, payment: e.target.value as Service["payment"] }))
            }
            options={SERVICE_PAYMENTS.map((p) => ({ value: p, label: PAYMENT_LABELS[p] }))}
          />
          {values.payment === "deposit" && (
            <Field label="Señal" inputMode="decimal" placeholder="10.00" {...bind("deposit")} />
          )}
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">Quién lo realiza</legend>
          <p className="mb-2 text-xs text-slate-600">Sin nadie marcado, cualquiera del equipo.</p>
          <div className="flex flex-wrap gap-3">
            {members.map((m) => (
              <label
                key={m.user_id}
                className="inline-flex items-center gap-2 text-sm text-slate-700"
              >
                <input
                  type="checkbox"
                  checked={values.staff_user_ids.includes(m.user_id)}
                  onChange={(e) => toggleStaff(m.user_id, e.target.checked)}
                  disabled={change.busy}
                />
                {m.full_name}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={values.active}
            onChange={(e) => setValues((v) => ({ ...v, active: e.target.checked }))}
            disabled={change.busy}
          />
          Se puede reservar
        </label>
        <DialogActions submitLabel="Guardar servicio" busy={change.busy} onCancel={onClose} />
      </form>
    </Modal>
  );
}
