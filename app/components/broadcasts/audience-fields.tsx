import { useId } from "react";
import {
  CONVERSATION_STAGES,
  STAGE_LABELS,
  type ConversationStage,
} from "../../../worker/sales/contract";
import type { Label } from "../../../worker/team-inbox/contract";
import { Field } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/forms";

/** The audience as the form edits it: days (YYYY-MM-DD) in the organization's time zone. */
export interface AudienceValues {
  label_ids: string[];
  stages: ConversationStage[];
  /** Ads chosen through the API: kept as they are (the console does not list ads to choose). */
  ad_ids: string[];
  after: string;
  before: string;
  has_phone: boolean;
}

export const EMPTY_AUDIENCE: AudienceValues = {
  label_ids: [],
  stages: [],
  ad_ids: [],
  after: "",
  before: "",
  has_phone: false,
};

const toggled = <T,>(list: T[], item: T, on: boolean) =>
  on ? [...list, item] : list.filter((x) => x !== item);

const CHECKBOX = "h-4 w-4 rounded border-slate-300 accent-emerald-600";

/** A fieldset of choices, its error announced with it. */
function Choices({
  legend,
  hint,
  error,
  children,
}: {
  legend: string;
  hint?: string;
  error?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">{children}</div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The labels to choose any of (the Difusiones' audience, a follow-up's trigger). One chosen
 * that no longer exists (deleted since) stays listed, so it can be unchecked.
 */
export function LabelChoices({
  value,
  labels,
  hint,
  error,
  disabled,
  onChange,
}: {
  value: string[];
  labels: Label[];
  hint: string;
  error?: string;
  disabled: boolean;
  onChange: (value: string[]) => void;
}) {
  const gone = value
    .filter((id) => !labels.some((label) => label.id === id))
    .map((id) => ({ id, name: "Etiqueta eliminada", color: undefined }));
  const choices = [...labels, ...gone];
  return (
    <Choices legend="Etiquetas" hint={hint} error={error}>
      {choices.length === 0 && (
        <p className="text-sm text-slate-600">
          Aún no hay etiquetas: créalas en Configuración &gt; Organización.
        </p>
      )}
      {choices.map((label) => (
        <label key={label.id} className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={value.includes(label.id)}
            disabled={disabled}
            onChange={(e) => onChange(toggled(value, label.id, e.target.checked))}
          />
          <span
            aria-hidden
            className={`h-3 w-3 rounded-full ${label.color ? "" : "border border-slate-400"}`}
            style={{ backgroundColor: label.color }}
          />
          {label.name}
        </label>
      ))}
    </Choices>
  );
}

/** The conversation stages to choose any of. */
export function StageChoices({
  value,
  hint,
  error,
  disabled,
  onChange,
}: {
  value: ConversationStage[];
  hint: string;
  error?: string;
  disabled: boolean;
  onChange: (value: ConversationStage[]) => void;
}) {
  return (
    <Choices legend="Etapas" hint={hint} error={error}>
      {CONVERSATION_STAGES.map((stage) => (
        <label key={stage} className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={value.includes(stage)}
            disabled={disabled}
            onChange={(e) => onChange(toggled(value, stage, e.target.checked))}
          />
          {STAGE_LABELS[stage]}
        </label>
      ))}
    </Choices>
  );
}

/**
 * Who receives it: any of the labels, any of the stages, when the customer last wrote, only
 * those with a phone. Every criterion given must hold; none at all is every WhatsApp customer.
 */
export function AudienceFields({
  value,
  labels,
  timeZone,
  errors,
  disabled,
  onChange,
}: {
  value: AudienceValues;
  labels: Label[];
  timeZone: string;
  errors: FieldErrors;
  disabled: boolean;
  onChange: (value: AudienceValues) => void;
}) {
  const set = <K extends keyof AudienceValues>(key: K, v: AudienceValues[K]) =>
    onChange({ ...value, [key]: v });
  const none =
    value.label_ids.length === 0 &&
    value.stages.length === 0 &&
    value.ad_ids.length === 0 &&
    !value.after &&
    !value.before &&
    !value.has_phone;

  return (
    <div className="space-y-5">
      <LabelChoices
        value={value.label_ids}
        labels={labels}
        hint="Clientes con cualquiera de las etiquetas marcadas."
        error={errors["audience.label_ids"]}
        disabled={disabled}
        onChange={(ids) => set("label_ids", ids)}
      />
      <StageChoices
        value={value.stages}
        hint="Clientes en cualquiera de las etapas marcadas."
        error={errors["audience.stages"]}
        disabled={disabled}
        onChange={(stages) => set("stages", stages)}
      />

      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Último mensaje del cliente</legend>
        <p className="mt-0.5 text-xs text-slate-500">
          Días en la zona horaria de la organización ({timeZone}): «después del» incluye ese día,
          «antes del» no. Un cliente que nunca escribió no cumple ninguno de los dos.
        </p>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          <Field
            label="Después del"
            type="date"
            value={value.after}
            disabled={disabled}
            error={errors["audience.last_inbound_after"]}
            onChange={(e) => set("after", e.target.value)}
          />
          <Field
            label="Antes del"
            type="date"
            value={value.before}
            disabled={disabled}
            error={errors["audience.last_inbound_before"]}
            onChange={(e) => set("before", e.target.value)}
          />
        </div>
      </fieldset>

      <div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className={CHECKBOX}
            checked={value.has_phone}
            disabled={disabled}
            onChange={(e) => set("has_phone", e.target.checked)}
          />
          Solo clientes con teléfono
        </label>
        <p className="ml-6 mt-0.5 text-xs text-slate-500">
          Deja fuera a quien solo se conoce por su nombre de usuario de WhatsApp.
        </p>
      </div>

      {value.ad_ids.length > 0 && (
        <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
          Además, solo clientes que llegaron por{" "}
          {value.ad_ids.length === 1 ? "un anuncio concreto" : `${value.ad_ids.length} anuncios`}{" "}
          (criterio puesto desde la API: se mantiene al guardar).
        </p>
      )}
      {none && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Sin criterios, la difusión va a todos tus clientes de WhatsApp.
        </p>
      )}
    </div>
  );
}
