import { useState } from "react";
import { toast } from "sonner";
import { organizationUpdateInput } from "../../../worker/organizations/contract";
import { quietHoursSentence, useOrganizationTime } from "~/components/broadcasts/organization-time";
import { timeZones } from "~/components/broadcasts/zoned-time";
import { Button } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";

/**
 * Configuración > Organización > Difusiones y seguimientos: the organization's time zone and its
 * quiet hours, when no broadcast or follow-up is sent (a send that would fall inside them waits
 * for their end). Owners and admins change them; everyone reads them. `#quiet-hours` links here.
 */
export function QuietHoursSection() {
  const auth = useAuth();
  const organization = auth.organization;
  const canEdit = auth.role === "owner" || auth.role === "admin";
  const clock = useOrganizationTime();
  const saved = {
    time_zone: clock.timeZone,
    quiet_hours_start: clock.quietStart,
    quiet_hours_end: clock.quietEnd,
  };
  const [values, setValues] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [zones] = useState(() => timeZones(saved.time_zone));
  if (!organization) return null;
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (key) => values[key] !== saved[key],
  );

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const changes = Object.fromEntries(changed.map((key) => [key, values[key]]));
    const checked = validate(organizationUpdateInput, changes);
    if (checked.errors) return setErrors(checked.errors);
    setSaving(true);
    try {
      const updated = await data(
        client.organizations[":id"].$patch({
          param: { id: organization!.id },
          json: checked.data,
        }),
      );
      auth.setOrganization(updated);
      setValues({
        time_zone: updated.time_zone,
        quiet_hours_start: updated.quiet_hours_start,
        quiet_hours_end: updated.quiet_hours_end,
      });
      setErrors({});
      toast.success("Horario de descanso actualizado");
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast.error("Error al guardar el horario de descanso", {
        description: errorMessage(error),
      });
    } finally {
      setSaving(false);
    }
  }

  const bind = (field: keyof typeof values) => ({
    value: values[field],
    error: errors[field],
    disabled: !canEdit || saving,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  return (
    <section
      id="quiet-hours"
      aria-labelledby="quiet-hours-title"
      className="mt-6 max-w-2xl rounded-xl border border-slate-200 bg-white p-6"
    >
      <h2 id="quiet-hours-title" className="text-lg font-semibold text-slate-900">
        Difusiones y seguimientos: horario de descanso
      </h2>
      <p className="mt-1 text-sm text-slate-600">{quietHoursSentence(clock)}</p>
      <p className="mt-1 text-xs text-slate-500">
        Una difusión o un seguimiento que caería dentro de ese horario espera a que termine. Las
        fechas de las difusiones se programan en esta zona horaria.
      </p>
      <form onSubmit={save} noValidate className="mt-4 space-y-4">
        <SelectField
          label="Zona horaria"
          options={zones.map((zone) => ({ value: zone, label: zone }))}
          {...bind("time_zone")}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Desde las" type="time" required {...bind("quiet_hours_start")} />
          <Field label="Hasta las" type="time" required {...bind("quiet_hours_end")} />
        </div>
        {canEdit && (
          <Button type="submit" disabled={saving || changed.length === 0}>
            {saving ? "Guardando..." : "Guardar horario"}
          </Button>
        )}
      </form>
    </section>
  );
}
