import { useState } from "react";
import { organizationUpdateInput } from "../../../contracts/organizations";
import { frequencyText } from "~/components/broadcasts/marketing-allowance";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useSettingsChange } from "./actions";
import type { OrganizationTabData } from "./data";
import { LoadFailure } from "./load-failure";

type Saved = Extract<OrganizationTabData["marketing"], { ok: true }>["data"];

/** A number field's text as the API wants it: blank is no cap (null), anything else a number. */
const numberOrNull = (text: string) => (text.trim() === "" ? null : Number(text));
const textOf = (value: number | null | undefined) => (value == null ? "" : String(value));

/**
 * Configuración > Organización, for the owner: what marketing may send and cost a month, and
 * how many marketing messages a customer may get in a number of days (decision 0083). Saved
 * through the route's action; the broadcasts and follow-ups of the store keep to it.
 */
export function MarketingLimitsSection({ loaded }: { loaded: OrganizationTabData["marketing"] }) {
  if (!loaded.ok) return <LoadFailure message={loaded.error} />;
  return <MarketingLimitsForm saved={loaded.data} />;
}

function MarketingLimitsForm({ saved }: { saved: Saved }) {
  const { organization } = useAuth();
  const initial = {
    monthly_sends: textOf(saved.budget?.monthly_sends),
    monthly_cost: textOf(saved.budget?.monthly_cost),
    max: String(saved.frequency.max),
    days: String(saved.frequency.days),
  };
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useSettingsChange((result) => setErrors(result.ok ? {} : result.fieldErrors));
  if (!organization) return null;
  const currency = organization.currency;
  const changed = (Object.keys(values) as (keyof typeof values)[]).some(
    (key) => values[key] !== initial[key],
  );

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const [sends, cost] = [numberOrNull(values.monthly_sends), numberOrNull(values.monthly_cost)];
    const asked = {
      marketing_budget:
        sends === null && cost === null
          ? null
          : { monthly_sends: sends, monthly_cost: cost, currency },
      marketing_frequency: { max: Number(values.max), days: Number(values.days) },
    };
    const checked = validate(organizationUpdateInput, asked);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    void change.submit({
      intent: "marketing.update",
      organizationId: organization!.id,
      values: asked,
    });
  }

  const bind = (field: keyof typeof values, path: string) => ({
    value: values[field],
    error: errors[path],
    disabled: change.busy,
    type: "number",
    inputMode: "decimal" as const,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  return (
    <section
      id="marketing-limits"
      aria-labelledby="marketing-limits-title"
      className="mt-6 max-w-2xl rounded-xl border border-slate-200 bg-white p-6"
    >
      <h2 id="marketing-limits-title" className="text-lg font-semibold text-slate-900">
        Difusiones y seguimientos: presupuesto de marketing
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Cuánto pueden enviar y costar al mes las difusiones y los seguimientos de marketing, y
        cuántas promociones recibe como máximo cada cliente. Una difusión que superaría el
        presupuesto no se envía, y la que lo alcanza mientras se envía queda en pausa.
      </p>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Envíos al mes"
            min={1}
            step={1}
            hint="Vacío: sin límite de envíos."
            {...bind("monthly_sends", "marketing_budget.monthly_sends")}
          />
          <Field
            label={`Gasto estimado al mes (${currency})`}
            min={0}
            step={0.01}
            hint="Vacío: sin límite de gasto. Se estima como en la vista previa."
            {...bind("monthly_cost", "marketing_budget.monthly_cost")}
          />
          <Field
            label="Promociones por cliente"
            min={1}
            step={1}
            {...bind("max", "marketing_frequency.max")}
          />
          <Field
            label="Cada (días)"
            min={1}
            step={1}
            {...bind("days", "marketing_frequency.days")}
          />
        </div>
        <p className="text-xs text-slate-500">
          {frequencyText({ max: Number(values.max) || 0, days: Number(values.days) || 0 })}
        </p>
        <Button type="submit" disabled={change.busy || !changed}>
          {change.busy ? "Guardando..." : "Guardar límites"}
        </Button>
      </form>
    </section>
  );
}
