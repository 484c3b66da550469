import { useState } from "react";
import { toast } from "sonner";
import { organizationUpdateInput, type Organization } from "../../../worker/organizations/contract";
import { Button } from "~/components/ui/button";
import { Field, TextAreaField } from "~/components/ui/field";
import { api, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";

const editableFields = (o: Organization) => ({
  name: o.name,
  description: o.description ?? "",
  city: o.city,
  country: o.country,
  industry: o.industry,
  address: o.address ?? "",
});

export function OrganizationSettingsForm() {
  const auth = useAuth();
  const organization = auth.organization!;
  const canEdit = auth.role === "owner" || auth.role === "admin";
  const [values, setValues] = useState(() => editableFields(organization));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  const bind = (field: keyof typeof values) => ({
    name: field,
    value: values[field],
    error: errors[field],
    disabled: !canEdit || saving,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(organizationUpdateInput, values);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setSaving(true);
    try {
      const updated = await api.patch<Organization>(`/organizations/${organization.id}`, values);
      auth.setOrganization(updated);
      setValues(editableFields(updated));
      toast.success("Organización actualizada correctamente");
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast.error("Error al actualizar la organización", { description: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      onSubmit={save}
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
      </div>
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
