import { useState } from "react";
import {
  COMMON_CURRENCIES,
  EMPLOYEE_COUNTS,
  type Organization,
} from "../../../contracts/organizations";
import { Button } from "~/components/ui/button";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import { useOrganizationSave } from "./organization-save";

const editableFields = (o: Organization) => ({
  name: o.name,
  description: o.description ?? "",
  city: o.city,
  country: o.country,
  industry: o.industry,
  address: o.address ?? "",
  employee_count: o.employee_count,
  services_offered: o.services_offered,
  business_hours: o.business_hours,
  ai_use_case: o.ai_use_case,
  currency: o.currency,
});

type Values = ReturnType<typeof editableFields>;

/** Only what the person changed is sent: a value stored under older rules never blocks a save. */
const changedFields = (values: Values, saved: Values) =>
  Object.fromEntries(
    Object.entries(values).filter(([field, value]) => value !== saved[field as keyof Values]),
  );

/** The list's options, plus the stored value when it is not one of them (so it shows as it is). */
const optionsWith = (list: readonly string[], current: string) =>
  (list.includes(current) || !current ? list : [current, ...list]).map((value) => ({
    value,
    label: value,
  }));

export function OrganizationSettingsForm() {
  const auth = useAuth();
  const organization = auth.organization!;
  const canEdit = auth.role === "owner" || auth.role === "admin";
  const [values, setValues] = useState(() => editableFields(organization));
  const { save, saving, errors, setErrors } = useOrganizationSave({
    success: "Organización actualizada correctamente",
    failure: "Error al actualizar la organización",
  });

  const bind = (field: keyof Values) => ({
    name: field,
    value: values[field],
    error: errors[field],
    disabled: !canEdit || saving,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    // The old messages go as the save starts (a refused check puts its own back at once).
    setErrors({});
    const updated = await save(changedFields(values, editableFields(organization)));
    if (updated) setValues(editableFields(updated));
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="max-w-2xl space-y-4"
      aria-label="Configuración de Organización"
    >
      {!canEdit && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Solo los propietarios y administradores pueden editar la organización.
        </p>
      )}
      <Field label="Nombre" required {...bind("name")} />
      <TextAreaField label="Descripción" rows={3} {...bind("description")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Ciudad" {...bind("city")} />
        <Field label="País" {...bind("country")} />
        <Field label="Sector" {...bind("industry")} />
        <Field label="Dirección" {...bind("address")} />
        <SelectField
          label="Número de empleados"
          options={optionsWith(EMPLOYEE_COUNTS, organization.employee_count)}
          {...bind("employee_count")}
        />
        <SelectField
          label="Moneda"
          hint="La de las ventas que registras y de los ingresos del informe de anuncios."
          options={optionsWith(COMMON_CURRENCIES, organization.currency)}
          {...bind("currency")}
        />
      </div>
      <fieldset className="space-y-4 pt-2">
        <legend className="mb-3 text-sm font-semibold text-slate-900">
          Lo que la IA sabe de tu negocio
        </legend>
        <TextAreaField
          label="Servicios que ofreces"
          required
          rows={3}
          {...bind("services_offered")}
        />
        <Field
          label="Horario de atención"
          required
          placeholder="Ej.: L-V 9:00-18:00"
          {...bind("business_hours")}
        />
        <TextAreaField label="¿Para qué usas la IA?" required rows={3} {...bind("ai_use_case")} />
      </fieldset>
      {canEdit && (
        <div className="flex gap-3">
          <Button
            variant="secondary"
            onClick={() => {
              setValues(editableFields(organization));
              setErrors({});
            }}
            disabled={saving}
          >
            Cancelar
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Guardando..." : "Guardar Cambios"}
          </Button>
        </div>
      )}
    </form>
  );
}
