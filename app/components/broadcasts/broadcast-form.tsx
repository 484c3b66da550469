import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import {
  broadcastInput,
  type AudienceAd,
  type AudienceCriteria,
  type Broadcast,
} from "../../../contracts/broadcasts";
import type { Label } from "../../../contracts/team-inbox";
import { templateKey } from "~/lib/templates";
import { useFormErrors, validate, type FieldErrors } from "~/lib/forms";
import type { BroadcastActionResult, BroadcastBody, BroadcastChange } from "./actions";
import { asJson } from "./actions";
import { AudienceFields, EMPTY_AUDIENCE, type AudienceValues } from "./audience-fields";
import { FormFooter, NameField } from "./form-page";
import { useOrganizationTime } from "./organization-time";
import { ScheduleField, type ScheduleValues } from "./schedule-field";
import { TEMPLATE_FIELD_OF_CODE, TemplateField, type TemplatesLoaded } from "./template-field";
import { isoToZoned, zonedToIso } from "./zoned-time";

interface FormValues {
  name: string;
  /** `templateKey` of the chosen template ("" for none). */
  template: string;
  parameters: string[];
  audience: AudienceValues;
  schedule: ScheduleValues;
}

/** The form's values for a saved broadcast (days and times in the organization's zone). */
function valuesOf(broadcast: Broadcast | null, timeZone: string): FormValues {
  if (!broadcast) {
    return {
      name: "",
      template: "",
      parameters: [],
      audience: EMPTY_AUDIENCE,
      schedule: { when: "now", send_at: "" },
    };
  }
  const { audience: a } = broadcast;
  const day = (iso: string | undefined) => (iso ? isoToZoned(iso, timeZone).slice(0, 10) : "");
  return {
    name: broadcast.name,
    template: templateKey(broadcast.template),
    parameters: broadcast.template.parameters,
    audience: {
      label_ids: a.label_ids ?? [],
      stages: a.stages ?? [],
      ad_ids: a.ad_ids ?? [],
      after: day(a.last_inbound_after),
      before: day(a.last_inbound_before),
      has_phone: a.has_phone ?? false,
    },
    schedule: broadcast.send_at
      ? { when: "later", send_at: isoToZoned(broadcast.send_at, timeZone) }
      : { when: "now", send_at: "" },
  };
}

/** The criteria the API keeps: only those given. */
function criteriaOf(a: AudienceValues, timeZone: string): AudienceCriteria {
  const criteria: AudienceCriteria = {};
  if (a.label_ids.length > 0) criteria.label_ids = a.label_ids;
  if (a.stages.length > 0) criteria.stages = a.stages;
  if (a.ad_ids.length > 0) criteria.ad_ids = a.ad_ids;
  const after = a.after && zonedToIso(a.after, timeZone);
  const before = a.before && zonedToIso(a.before, timeZone);
  if (after) criteria.last_inbound_after = after;
  if (before) criteria.last_inbound_before = before;
  if (a.has_phone) criteria.has_phone = true;
  return criteria;
}

/** Where a refusal without per-field details belongs, by the API's code. */
const FIELD_OF_CODE: Record<string, string> = {
  ...TEMPLATE_FIELD_OF_CODE,
  unknown_label: "audience.label_ids",
  send_at_past: "send_at",
};

/**
 * 'Nueva difusión' / 'Editar difusión': name, template and its parameters, audience and when.
 * Saved as a draft through the route's action, which then opens the broadcast's page: its
 * preview, and the button that sends or schedules it.
 */
export function BroadcastForm({
  broadcast,
  templates,
  labels,
  ads,
}: {
  broadcast: Broadcast | null;
  templates: TemplatesLoaded;
  labels: Label[];
  /** The ads the organization's conversations came from (`readAudienceAds`). */
  ads: AudienceAd[];
}) {
  const clock = useOrganizationTime();
  const { timeZone } = clock;
  const fetcher = useFetcher<BroadcastActionResult>();
  const [values, setValues] = useState(() => valuesOf(broadcast, timeZone));
  const form = useRef<HTMLFormElement>(null);
  const saving = fetcher.state !== "idle";
  const [now] = useState(() => isoToZoned(new Date().toISOString(), timeZone));
  const { errors, refuse, clear, reset } = useFormErrors(form, fetcher, FIELD_OF_CODE);

  /** A field's messages go once the person changes it (`send_at` for the schedule). */
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    clear(key === "schedule" ? "send_at" : key);
  };

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    const [name = "", language = ""] = values.template.split("|");
    const sendAt =
      values.schedule.when === "later" ? zonedToIso(values.schedule.send_at, timeZone) : null;
    const body: BroadcastBody = {
      name: values.name,
      template: { name, language, parameters: values.parameters.map((p) => p.trim()) },
      audience: criteriaOf(values.audience, timeZone),
      send_at: sendAt,
    };
    const checked = validate(broadcastInput, body);
    const found: FieldErrors = { ...checked.errors };
    if (!values.template) found["template.name"] = "Elige una plantilla";
    if (values.schedule.when === "later") {
      if (!sendAt) found.send_at = "Elige la fecha y la hora del envío";
      else if (Date.parse(sendAt) <= Date.now()) found.send_at = "Elige una fecha y hora futura";
    }
    if (Object.keys(found).length > 0) return refuse(found);
    reset();
    const change: BroadcastChange = broadcast
      ? { intent: "update", id: broadcast.id, values: body }
      : { intent: "create", values: body };
    void fetcher.submit(change, asJson);
  }

  const section = "space-y-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-6";
  const heading = "text-base font-semibold text-slate-900";
  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-label={broadcast ? "Editar difusión" : "Nueva difusión"}
      className="max-w-3xl space-y-6"
    >
      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors.form}
        </p>
      )}
      <section aria-labelledby="broadcast-message" className={section}>
        <h2 id="broadcast-message" className={heading}>
          Mensaje
        </h2>
        <NameField
          value={values.name}
          error={errors.name}
          disabled={saving}
          placeholder="Promoción de diciembre"
          onChange={(e) => set("name", e.target.value)}
        />
        <TemplateField
          loaded={templates}
          value={values.template}
          parameters={values.parameters}
          current={broadcast?.template ?? null}
          errors={errors}
          disabled={saving}
          onChange={(template, parameters) => {
            setValues((current) => ({ ...current, template, parameters }));
            clear("template");
          }}
        />
      </section>
      <section aria-labelledby="broadcast-audience" className={section}>
        <h2 id="broadcast-audience" className={heading}>
          Audiencia
        </h2>
        <p className="text-sm text-slate-600">
          Se calcula al enviarla: quien cumpla los criterios en ese momento. Los que no quieren
          promociones, los que Meta limita y los números que no alcanza se quedan fuera.
        </p>
        <AudienceFields
          value={values.audience}
          labels={labels}
          ads={ads}
          timeZone={timeZone}
          errors={errors}
          disabled={saving}
          onChange={(audience) => set("audience", audience)}
        />
      </section>
      <section aria-labelledby="broadcast-when" className={section}>
        <h2 id="broadcast-when" className="sr-only">
          Envío
        </h2>
        <ScheduleField
          value={values.schedule}
          clock={clock}
          minimum={now}
          errors={errors}
          disabled={saving}
          onChange={(schedule) => set("schedule", schedule)}
        />
      </section>
      <FormFooter
        cancel={broadcast ? `/broadcasts/${broadcast.id}` : "/broadcasts"}
        saving={saving}
        label="Guardar y ver vista previa"
      />
    </form>
  );
}
