import { useId, useState } from "react";
import type { AudienceAd } from "../../../contracts/broadcasts";
import {
  CONVERSATION_STAGES,
  STAGE_LABELS,
  type ConversationStage,
} from "../../../contracts/sales";
import type { Label } from "../../../contracts/team-inbox";
import { Field } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/forms";

/** The audience as the form edits it: days (YYYY-MM-DD) in the organization's time zone. */
export interface AudienceValues {
  label_ids: string[];
  stages: ConversationStage[];
  /** The click-to-WhatsApp ads the conversations came from (`AudienceAd.ad_id`). */
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

/**
 * The choices offered, then each chosen id none of them has (deleted since, or no longer
 * listed) as `missing` makes it: still shown, so it can be unchecked.
 */
function withChosen<T>(
  choices: T[],
  chosen: string[],
  idOf: (choice: T) => string,
  missing: (id: string) => T,
): T[] {
  const gone = chosen.filter((id) => !choices.some((choice) => idOf(choice) === id));
  return [...choices, ...gone.map(missing)];
}

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
  const choices = withChosen<{ id: string; name: string; color?: string }>(
    labels,
    value,
    (label) => label.id,
    (id) => ({ id, name: "Etiqueta eliminada" }),
  );
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

const conversationsCount = (n: number) => (n === 1 ? "1 conversación" : `${n} conversaciones`);

/** An ad as the form lists it; `conversations` unknown for a chosen one no longer listed. */
interface AdChoice {
  id: string;
  name: string;
  conversations: number | null;
}

/** The ads as the form lists them: a headline two ads share names each by its id too. */
function adChoices(ads: AudienceAd[], chosen: string[]) {
  const listed = ads.map((ad): AdChoice => {
    const shared = ad.headline && ads.some((o) => o !== ad && o.headline === ad.headline);
    const name = !ad.headline
      ? `Anuncio ${ad.ad_id}`
      : shared
        ? `${ad.headline} (${ad.ad_id})`
        : ad.headline;
    return { id: ad.ad_id, name, conversations: ad.conversations };
  });
  return withChosen(
    listed,
    chosen,
    (ad) => ad.id,
    (id) => ({ id, name: `Anuncio ${id}`, conversations: null }),
  );
}

/**
 * The click-to-WhatsApp ads the organization's conversations came from, to choose any of. An
 * ad the draft named that is not listed (no conversation left, or past the list's 100) stays
 * while the form is open, unchecked too: unchecking it neither moves the focus nor loses it.
 */
function AdChoices({
  value,
  ads,
  error,
  disabled,
  onChange,
}: {
  value: string[];
  ads: AudienceAd[];
  error?: string;
  disabled: boolean;
  onChange: (value: string[]) => void;
}) {
  const [saved] = useState(value);
  const choices = adChoices(ads, [...new Set([...saved, ...value])]);
  return (
    <Choices
      legend="Anuncio de origen"
      hint="Clientes que llegaron por cualquiera de los anuncios marcados."
      error={error}
    >
      {choices.length === 0 && (
        <p className="text-sm text-slate-600">
          Aquí aparecerán los anuncios de clic a WhatsApp cuando un cliente te escriba desde uno.
        </p>
      )}
      {choices.map((ad) => (
        <label key={ad.id} className="flex min-w-0 items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className={`${CHECKBOX} shrink-0`}
            checked={value.includes(ad.id)}
            disabled={disabled}
            onChange={(e) => onChange(toggled(value, ad.id, e.target.checked))}
          />
          <span className="min-w-0 break-words">
            {ad.name}
            {ad.conversations !== null && (
              <span className="text-slate-500"> · {conversationsCount(ad.conversations)}</span>
            )}
          </span>
        </label>
      ))}
    </Choices>
  );
}

/**
 * Who receives it: any of the labels, any of the stages, any of the ads, when the customer
 * last wrote, only those with a phone. Every criterion given must hold; none at all is every
 * WhatsApp customer.
 */
export function AudienceFields({
  value,
  labels,
  ads,
  timeZone,
  errors,
  disabled,
  onChange,
}: {
  value: AudienceValues;
  labels: Label[];
  ads: AudienceAd[];
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
      <AdChoices
        value={value.ad_ids}
        ads={ads}
        error={errors["audience.ad_ids"]}
        disabled={disabled}
        onChange={(ids) => set("ad_ids", ids)}
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

      {none && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Sin criterios, la difusión va a todos tus clientes de WhatsApp.
        </p>
      )}
    </div>
  );
}
