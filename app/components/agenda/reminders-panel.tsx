import { useState } from "react";
import type { ReminderSettings } from "../../../contracts/reminders";
import type { WhatsappTemplate } from "../../../contracts/whatsapp";
import { Button } from "~/components/ui/button";
import { SelectField } from "~/components/ui/field";
import { client, data } from "~/lib/api";
import { isApprovedTemplate, templateKey, useTemplates } from "~/lib/templates";
import { useAgendaChange } from "./use-agenda-change";

/** The reminders' template, or null when it could not be read (the panel says so). */
export const readReminders = (): Promise<ReminderSettings | null> =>
  data(client["booking-reminders"].$get()).catch(() => null);

/** What a reminder can be sent with: approved UTILITY templates (the API checks the buttons). */
const utilityTemplates = (templates: WhatsappTemplate[]) =>
  templates.filter((t) => isApprovedTemplate(t) && t.category.toUpperCase() === "UTILITY");

/**
 * Agenda > Recordatorios (contract section 18, decision 0120): the UTILITY template sent a day
 * before each confirmed booking, with its three buttons. Owners and admins choose it (the
 * route's action writes it); without one, no reminders are sent, and the panel says so.
 */
export function RemindersPanel({
  settings,
  canManage,
}: {
  settings: ReminderSettings | null;
  canManage: boolean;
}) {
  const current = settings?.template ?? null;
  const buttons = (settings?.buttons ?? ["Confirmar", "Cambiar", "Cancelar cita"])
    .map((b) => `«${b}»`)
    .join(", ");
  return (
    <section aria-labelledby="reminders-title" className="mt-8 max-w-4xl">
      <h2 id="reminders-title" className="mb-3 text-lg font-semibold text-slate-900">
        Recordatorios
      </h2>
      <div className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
        <p className="text-slate-600">
          Un día antes de cada cita confirmada (antes, si cae en el horario de descanso) el cliente
          recibe la plantilla elegida con los botones {buttons}. Las citas reservadas con menos de
          un día de antelación no tienen recordatorio.
        </p>
        {settings === null ? (
          <p className="mt-3 text-amber-800">No se pudo leer la plantilla de los recordatorios.</p>
        ) : current ? (
          <p className="mt-3 text-slate-900">
            Plantilla:{" "}
            <span className="font-medium">{`${current.name} (${current.language})`}</span>
          </p>
        ) : (
          <p className="mt-3 font-medium text-amber-800">
            Sin plantilla elegida no se envían recordatorios.
          </p>
        )}
        {canManage && settings !== null && <TemplateChoice current={current} />}
      </div>
    </section>
  );
}

/**
 * The account's templates to choose from, read once when the panel appears (decision 0157), not
 * each time the Agenda reads its days again.
 */
function TemplateChoice({ current }: { current: ReminderSettings["template"] }) {
  const { read } = useTemplates();
  const [choice, setChoice] = useState(current ? templateKey(current) : "");
  const change = useAgendaChange();
  const options =
    read.state === "ready"
      ? utilityTemplates(read.templates).map((t) => ({
          value: templateKey(t),
          label: `${t.name} (${t.language})`,
        }))
      : [];
  const save = () => {
    const [name, language] = choice.split("|");
    void change.submit({
      intent: "reminders.update",
      template: name && language ? { name, language } : null,
    });
  };
  return (
    <div className="mt-4 flex flex-wrap items-end gap-3">
      <SelectField
        label="Plantilla del recordatorio"
        hint="Una plantilla de utilidad aprobada, con los botones de respuesta rápida «Confirmar», «Cambiar» y «Cancelar cita»; {{1}} es el servicio y {{2}} la fecha y la hora."
        className="min-w-72 flex-1"
        value={choice}
        placeholder="Sin recordatorios"
        options={options}
        disabled={read.state === "loading"}
        error={read.state === "error" ? read.message : undefined}
        onChange={(event) => setChoice(event.target.value)}
      />
      <Button
        disabled={change.busy || choice === (current ? templateKey(current) : "")}
        onClick={save}
      >
        Guardar
      </Button>
    </div>
  );
}
