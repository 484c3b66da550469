import { BROADCAST_CATEGORIES, type BroadcastCategory } from "../../../contracts/broadcasts";
import {
  fillTemplate,
  templateParameterCount,
  type WhatsappTemplate,
} from "../../../contracts/whatsapp";
import { RetryReadButton } from "~/components/ui/retry-read-button";
import { Field, SelectField } from "~/components/ui/field";
import type { FieldErrors } from "~/lib/forms";
import { isApprovedTemplate, templateKey } from "~/lib/templates";
import { CATEGORY_LABELS } from "./labels";

/** The account's templates as the broadcast routes read them, or why they could not. */
export type TemplatesLoaded = { ok: true; data: WhatsappTemplate[] } | { ok: false; error: string };

/** Where the API's refusals of a template belong, when they name no field. */
export const TEMPLATE_FIELD_OF_CODE: Record<string, string> = {
  template_not_found: "template.name",
  template_language: "template.name",
  template_not_approved: "template.name",
  template_category: "template.name",
  template_parameters: "template.parameters",
};

const categoryOf = (t: WhatsappTemplate) => {
  const category = t.category.toUpperCase();
  return BROADCAST_CATEGORIES.find((c) => c === category);
};

/** What a broadcast may send: approved MARKETING and UTILITY templates. */
export const usableTemplates = (templates: WhatsappTemplate[]) =>
  templates.filter((t) => isApprovedTemplate(t) && categoryOf(t) !== undefined);

const CATEGORY_HINTS: Record<BroadcastCategory, string> = {
  MARKETING:
    "Marketing: solo la reciben quienes aceptan promociones, y Meta limita cuántas recibe cada cliente.",
  UTILITY:
    "Utilidad: avisos de algo que el cliente ya pidió (una cita, un pedido); Meta no admite promociones en ellas.",
};

/**
 * The template (approved, marketing or utility) and its `{{n}}` parameters, with the text the
 * customer will read. `current` keeps a broadcast's template on the list when the account's
 * list no longer has it (the save then says why). A follow-up's is optional (`required`
 * false, its empty choice `placeholder`).
 */
export function TemplateField({
  loaded,
  value,
  parameters,
  current,
  errors,
  disabled,
  onChange,
  required = true,
  placeholder = "Elige una plantilla",
  parameterHint = "El mismo texto para todos los clientes de la difusión.",
}: {
  loaded: TemplatesLoaded;
  /** `templateKey` of the chosen one; "" for none. */
  value: string;
  parameters: string[];
  current: { name: string; language: string } | null;
  errors: FieldErrors;
  disabled: boolean;
  onChange: (key: string, parameters: string[]) => void;
  required?: boolean;
  placeholder?: string;
  /** Said under the first parameter. */
  parameterHint?: string;
}) {
  if (!loaded.ok) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
        <p className="font-medium text-red-800">No se pudieron cargar las plantillas</p>
        <p className="mt-1 text-red-700">{loaded.error}</p>
        <RetryReadButton className="mt-2" />
      </div>
    );
  }
  const templates = usableTemplates(loaded.data);
  if (templates.length === 0 && !current) {
    return (
      <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
        Tu cuenta de WhatsApp no tiene plantillas aprobadas de marketing o de utilidad. Créalas en
        el administrador de WhatsApp de Meta y vuelve cuando estén aprobadas.
      </p>
    );
  }
  const options = templates.map((t) => ({
    value: templateKey(t),
    label: `${t.name} (${t.language}) · ${CATEGORY_LABELS[categoryOf(t)!]}`,
  }));
  if (current && !options.some((o) => o.value === templateKey(current))) {
    options.unshift({
      value: templateKey(current),
      label: `${current.name} (${current.language}) · ya no está aprobada`,
    });
  }
  const template = templates.find((t) => templateKey(t) === value) ?? null;
  const count = template ? templateParameterCount(template) : parameters.length;
  const values = Array.from({ length: count }, (_, i) => parameters[i] ?? "");
  const category = template ? categoryOf(template) : undefined;

  return (
    <div className="space-y-3">
      <SelectField
        label="Plantilla"
        required={required}
        placeholder={placeholder}
        options={options}
        value={value}
        disabled={disabled}
        error={errors["template.name"] ?? errors["template.language"] ?? errors.template}
        hint={category ? CATEGORY_HINTS[category] : undefined}
        onChange={(e) => onChange(e.target.value, [])}
      />
      {values.map((parameter, i) => (
        <Field
          key={i}
          label={`Parámetro {{${i + 1}}}`}
          required
          maxLength={1024}
          value={parameter}
          disabled={disabled}
          error={
            errors[`template.parameters.${i}`] ??
            (i === 0 ? errors["template.parameters"] : undefined)
          }
          hint={i === 0 ? parameterHint : undefined}
          onChange={(e) =>
            onChange(
              value,
              values.map((v, j) => (j === i ? e.target.value : v)),
            )
          }
        />
      ))}
      {template && (
        <div>
          <p className="text-xs font-medium text-slate-500">Lo que leerá el cliente</p>
          <p
            aria-label="Texto de la plantilla"
            className="mt-1 whitespace-pre-wrap break-words rounded-lg bg-emerald-50 px-3 py-2 text-sm text-slate-800"
          >
            {fillTemplate(
              template,
              values.map((v, i) => v.trim() || `{{${i + 1}}}`),
            )}
          </p>
        </div>
      )}
    </div>
  );
}
