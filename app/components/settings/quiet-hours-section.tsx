import { useState } from "react";
import { quietHoursSentence, useOrganizationTime } from "~/components/broadcasts/organization-time";
import { timeZones } from "~/components/broadcasts/zoned-time";
import { Button } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import { useOrganizationSave } from "./organization-save";

/**
 * Configuración > Organización > Difusiones y seguimientos: the organization's time zone and its
 * quiet hours, when no broadcast or follow-up is sent (a send that would fall inside them waits
 * for their end). Owners and admins change them; everyone reads them. `#quiet-hours` links here.
 */
export function QuietHoursSection() {
  const auth = useAuth();
  const canEdit = auth.role === "owner" || auth.role === "admin";
  const clock = useOrganizationTime();
  const saved = {
    time_zone: clock.timeZone,
    quiet_hours_start: clock.quietStart,
    quiet_hours_end: clock.quietEnd,
  };
  const [values, setValues] = useState(saved);
  const { save, saving, errors } = useOrganizationSave({
    success: "Horario de descanso actualizado",
    failure: "Error al guardar el horario de descanso",
  });
  const [zones] = useState(() => timeZones(saved.time_zone));
  if (!auth.organization) return null;
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (key) => values[key] !== saved[key],
  );

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const updated = await save(Object.fromEntries(changed.map((key) => [key, values[key]])));
    if (updated) {
      setValues({
        time_zone: updated.time_zone,
        quiet_hours_start: updated.quiet_hours_start,
        quiet_hours_end: updated.quiet_hours_end,
      });
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
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
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
