import { useState } from "react";
import { WEEK_DAYS, type Week } from "../../../contracts/bookings";
import { timeZones } from "~/components/broadcasts/zoned-time";
import { Button } from "~/components/ui/button";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import type { FieldErrors } from "~/lib/forms";
import { useSettingsChange } from "./actions";
import { ClosedDatesField } from "./closed-dates-field";
import type { OrganizationTabData } from "./data";
import { LoadFailure } from "./load-failure";
import { WeekField } from "./week-field";

type Saved = Extract<OrganizationTabData["hours"], { ok: true }>["data"];

const emptyWeek = () => Object.fromEntries(WEEK_DAYS.map((day) => [day, []])) as unknown as Week;

const formOf = (saved: Saved) => ({
  time_zone: saved.opening_hours?.time_zone ?? saved.time_zone,
  week: saved.opening_hours?.week ?? emptyWeek(),
  closed_dates: saved.opening_hours?.closed_dates ?? [],
  min_notice_minutes: String(saved.min_notice_minutes),
  away_enabled: saved.away_message.enabled,
  away_text: saved.away_message.text ?? "",
});

/**
 * Configuración > Organización > Horario de atención (decision 0076): the week's opening
 * intervals, closed days and their time zone, the notice a booking needs, and the away message
 * sent once per closed stretch when no AI agent answers. Owners and admins change them.
 */
export function OpeningHoursSection({ loaded }: { loaded: OrganizationTabData["hours"] }) {
  if (!loaded.ok) return <LoadFailure message={loaded.error} />;
  return <OpeningHoursForm saved={loaded.data} />;
}

function OpeningHoursForm({ saved }: { saved: Saved }) {
  const { organization, role } = useAuth();
  const canEdit = role === "owner" || role === "admin";
  const [values, setValues] = useState(() => formOf(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useSettingsChange((result) => setErrors(result.ok ? {} : result.fieldErrors));
  const [zones] = useState(() => timeZones(values.time_zone));
  if (!organization) return null;
  const disabled = !canEdit || change.busy;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    void change.submit({
      intent: "hours.update",
      organizationId: organization!.id,
      values: {
        business_hours: {
          time_zone: values.time_zone,
          week: values.week,
          closed_dates: values.closed_dates,
        },
        away_message: { enabled: values.away_enabled, text: values.away_text.trim() || null },
        min_notice_minutes: Number(values.min_notice_minutes),
      },
    });
  }

  return (
    <section
      id="opening-hours"
      aria-labelledby="opening-hours-title"
      className="mt-6 max-w-2xl rounded-xl border border-slate-200 bg-white p-6"
    >
      <h2 id="opening-hours-title" className="text-lg font-semibold text-slate-900">
        Agenda: horas de apertura
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Las citas se reservan dentro de este horario. Fuera de él, si ningún agente de IA responde,
        el cliente recibe el mensaje de ausencia una vez.
      </p>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <SelectField
          label="Zona horaria del horario"
          options={zones.map((zone) => ({ value: zone, label: zone }))}
          value={values.time_zone}
          error={errors["business_hours.time_zone"]}
          disabled={disabled}
          onChange={(e) => setValues((v) => ({ ...v, time_zone: e.target.value }))}
        />
        <WeekField
          week={values.week}
          onChange={(week) => setValues((v) => ({ ...v, week }))}
          errors={errors}
          disabled={disabled}
        />
        <ClosedDatesField
          dates={values.closed_dates}
          onChange={(closed_dates) => setValues((v) => ({ ...v, closed_dates }))}
          error={
            Object.entries(errors).find(([p]) => p.startsWith("business_hours.closed_dates"))?.[1]
          }
          disabled={disabled}
        />
        <Field
          label="Antelación mínima (minutos)"
          type="number"
          min={0}
          step={15}
          hint="Una cita no se puede reservar con menos antelación."
          value={values.min_notice_minutes}
          error={errors.min_notice_minutes}
          disabled={disabled}
          onChange={(e) => setValues((v) => ({ ...v, min_notice_minutes: e.target.value }))}
        />
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={values.away_enabled}
            disabled={disabled}
            onChange={(e) => setValues((v) => ({ ...v, away_enabled: e.target.checked }))}
          />
          Enviar mensaje de ausencia fuera del horario
        </label>
        <TextAreaField
          label="Mensaje de ausencia"
          rows={3}
          maxLength={1000}
          value={values.away_text}
          error={errors["away_message.text"]}
          disabled={disabled}
          onChange={(e) => setValues((v) => ({ ...v, away_text: e.target.value }))}
        />
        {canEdit && (
          <Button type="submit" disabled={change.busy}>
            {change.busy ? "Guardando..." : "Guardar horario de atención"}
          </Button>
        )}
      </form>
    </section>
  );
}
