import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import {
  followUpInput,
  MAX_PER_CONVERSATION,
  WINDOW_MINUTES,
  type FollowUp,
} from "../../../contracts/follow-ups";
import type { ConversationStage } from "../../../contracts/sales";
import type { Label } from "../../../contracts/team-inbox";
import { asJson } from "~/components/broadcasts/actions";
import { LabelChoices, StageChoices } from "~/components/broadcasts/audience-fields";
import { FormFooter, NameField } from "~/components/broadcasts/form-page";
import {
  TEMPLATE_FIELD_OF_CODE,
  TemplateField,
  type TemplatesLoaded,
} from "~/components/broadcasts/template-field";
import { Field, TextAreaField } from "~/components/ui/field";
import { Switch } from "~/components/ui/switch";
import { templateKey } from "~/lib/templates";
import { useFormErrors, validate } from "~/lib/forms";
import type { FollowUpActionResult, FollowUpBody, FollowUpChange } from "./actions";
import { WaitField } from "./wait-field";
import { unitMinutes, waitInUnits, type WaitUnit } from "./words";

/** WhatsApp's limit for a text message (the API's). */
const MAX_TEXT = 4096;

interface FormValues {
  name: string;
  enabled: boolean;
  amount: string;
  unit: WaitUnit;
  label_ids: string[];
  stages: ConversationStage[];
  text: string;
  /** `templateKey` of the chosen template ("" for none). */
  template: string;
  parameters: string[];
  max: string;
}

function valuesOf(rule: FollowUp | null): FormValues {
  if (!rule) {
    return {
      name: "",
      enabled: true,
      amount: "",
      unit: "hours",
      label_ids: [],
      stages: [],
      text: "",
      template: "",
      parameters: [],
      max: "1",
    };
  }
  const wait = waitInUnits(rule.trigger.no_reply_minutes);
  return {
    name: rule.name,
    enabled: rule.enabled,
    amount: wait.amount,
    unit: wait.unit,
    label_ids: rule.trigger.label_ids,
    stages: rule.trigger.stages,
    text: rule.text ?? "",
    template: rule.template ? templateKey(rule.template) : "",
    parameters: rule.template?.parameters ?? [],
    max: String(rule.max_per_conversation),
  };
}

/** A number typed in a field (NaN when empty: the schema then says it is missing). */
const typed = (value: string) => (value.trim() === "" ? Number.NaN : Number(value));

/** The rule the API takes: the wait in minutes, no template or text when there is none. */
function bodyOf(values: FormValues): FollowUpBody {
  const [name = "", language = ""] = values.template.split("|");
  return {
    name: values.name,
    enabled: values.enabled,
    trigger: {
      no_reply_minutes: typed(values.amount) * unitMinutes(values.unit),
      label_ids: values.label_ids,
      stages: values.stages,
    },
    template: values.template
      ? { name, language, parameters: values.parameters.map((p) => p.trim()) }
      : null,
    text: values.text.trim() ? values.text : null,
    max_per_conversation: typed(values.max),
  };
}

/** Where a refusal without per-field details belongs, by the API's code. */
const FIELD_OF_CODE: Record<string, string> = {
  ...TEMPLATE_FIELD_OF_CODE,
  unknown_label: "trigger.label_ids",
};

const WAIT = "trigger.no_reply_minutes";

/**
 * 'Nuevo seguimiento' / 'Editar seguimiento': name, the wait and which conversations, the text
 * and the template, how many times, on or off. Checked as the API checks it (one of text and
 * template at least; text alone only before 24 h), then saved by the route's action, which goes
 * back to the list.
 */
export function FollowUpForm({
  rule,
  templates,
  labels,
}: {
  rule: FollowUp | null;
  templates: TemplatesLoaded;
  labels: Label[];
}) {
  const fetcher = useFetcher<FollowUpActionResult>();
  const [values, setValues] = useState(() => valuesOf(rule));
  const form = useRef<HTMLFormElement>(null);
  const saving = fetcher.state !== "idle";
  const { errors, refuse, clear, reset } = useFormErrors(form, fetcher, FIELD_OF_CODE);

  /** A change, and the messages of the fields it touches gone. */
  const change = (patch: Partial<FormValues>, ...fields: string[]) => {
    setValues((current) => ({ ...current, ...patch }));
    clear(...fields);
  };

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return;
    const body = bodyOf(values);
    const checked = validate(followUpInput, body);
    if (checked.errors) return refuse(checked.errors);
    reset();
    const saved: FollowUpChange = rule
      ? { intent: "update", id: rule.id, values: body }
      : { intent: "create", values: body };
    void fetcher.submit(saved, asJson);
  }

  const minutes = typed(values.amount) * unitMinutes(values.unit);
  const textNeverSent = Boolean(values.text.trim() && values.template) && minutes >= WINDOW_MINUTES;
  const section = "space-y-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-6";
  const heading = "text-base font-semibold text-slate-900";
  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-label={rule ? "Editar seguimiento" : "Nuevo seguimiento"}
      className="max-w-3xl space-y-6"
    >
      {(errors.form ?? errors["(body)"]) && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors.form ?? errors["(body)"]}
        </p>
      )}
      <section aria-labelledby="follow-up-when" className={section}>
        <h2 id="follow-up-when" className={heading}>
          Cuándo
        </h2>
        <NameField
          value={values.name}
          error={errors.name}
          disabled={saving}
          placeholder="Recordatorio a las 2 horas"
          onChange={(e) => change({ name: e.target.value }, "name")}
        />
        <WaitField
          amount={values.amount}
          unit={values.unit}
          error={errors[WAIT]}
          disabled={saving}
          onChange={(amount, unit) => change({ amount, unit }, WAIT)}
        />
        <LabelChoices
          value={values.label_ids}
          labels={labels}
          hint="Solo conversaciones con alguna de las etiquetas marcadas. Ninguna marcada: todas."
          error={errors["trigger.label_ids"]}
          disabled={saving}
          onChange={(label_ids) => change({ label_ids }, "trigger.label_ids")}
        />
        <StageChoices
          value={values.stages}
          hint="Solo conversaciones en alguna de las etapas marcadas. Ninguna marcada: todas."
          error={errors["trigger.stages"]}
          disabled={saving}
          onChange={(stages) => change({ stages }, "trigger.stages")}
        />
        <Field
          label="Veces como máximo por conversación"
          required
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_PER_CONVERSATION}
          className="max-w-xs"
          value={values.max}
          error={errors.max_per_conversation}
          disabled={saving}
          hint={`Si el cliente sigue sin responder, vuelve a escribir tras otra espera igual (de 1 a ${MAX_PER_CONVERSATION} veces).`}
          onChange={(e) => change({ max: e.target.value }, "max_per_conversation")}
        />
      </section>
      <section aria-labelledby="follow-up-message" className={section}>
        <h2 id="follow-up-message" className={heading}>
          Mensaje
        </h2>
        <p className="text-sm text-slate-600">
          El texto se envía mientras la ventana de 24 horas está abierta; la plantilla, cuando ya se
          cerró (o siempre, si no hay texto). Indica al menos uno: solo con texto, la espera debe
          ser de menos de 24 horas.
        </p>
        <div>
          <TextAreaField
            label="Texto"
            rows={4}
            maxLength={MAX_TEXT}
            value={values.text}
            error={errors.text}
            disabled={saving}
            placeholder="Hola, ¿pudiste ver nuestra propuesta? Si tienes dudas, te ayudamos."
            hint="Opcional. Solo dentro de la ventana de 24 horas."
            onChange={(e) => change({ text: e.target.value }, "text", WAIT)}
          />
          <p className="mt-1 text-right text-xs tabular-nums text-slate-500">
            {values.text.length}/{MAX_TEXT}
          </p>
        </div>
        <TemplateField
          loaded={templates}
          value={values.template}
          parameters={values.parameters}
          current={rule?.template ?? null}
          errors={errors}
          disabled={saving}
          required={false}
          placeholder="Sin plantilla"
          parameterHint="El mismo texto en cada envío."
          onChange={(template, parameters) =>
            change({ template, parameters }, "template", "text", WAIT)
          }
        />
        {textNeverSent && (
          <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
            Con una espera de 24 horas o más la ventana ya se habrá cerrado: se enviará la
            plantilla, no el texto.
          </p>
        )}
      </section>
      <div className={section}>
        <Switch
          label="Activo"
          checked={values.enabled}
          onChange={(enabled) => change({ enabled }, "enabled")}
        />
        <p className="text-xs text-slate-500">
          Desactivado no envía nada. Al activarlo solo cuenta las esperas que terminen a partir de
          ese momento.
        </p>
      </div>
      <FormFooter cancel="/follow-ups" saving={saving} label="Guardar seguimiento" />
    </form>
  );
}
