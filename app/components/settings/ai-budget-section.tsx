import { useState } from "react";
import { toast } from "sonner";
import { organizationUpdateInput } from "../../../worker/organizations/contract";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";

/**
 * Configuración > Organización, for the owner: the monthly AI budget in tokens. Past it the
 * agents stop until the 1st of next month (UTC) or until it rises.
 */
export function AiBudgetSection() {
  const { organization, setOrganization } = useAuth();
  const saved = String(organization?.ai_monthly_token_budget ?? "");
  const [value, setValue] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  if (!organization) return null;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const body = { ai_monthly_token_budget: value.trim() === "" ? NaN : Number(value) };
    const checked = validate(organizationUpdateInput, body);
    if (checked.errors) return setErrors(checked.errors);
    setSaving(true);
    try {
      const updated = await data(
        client.organizations[":id"].$patch({
          param: { id: organization!.id },
          json: checked.data,
        }),
      );
      setOrganization(updated);
      setErrors({});
      toast.success("Presupuesto de IA actualizado");
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast.error("Error al guardar el presupuesto de IA", { description: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section
      aria-labelledby="ai-budget-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-6"
    >
      <h2 id="ai-budget-title" className="text-lg font-semibold text-slate-900">
        Presupuesto mensual de IA
      </h2>
      <form onSubmit={save} noValidate className="mt-4 flex flex-wrap items-end gap-3">
        <Field
          label="Tokens al mes"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          className="w-64"
          value={value}
          error={errors.ai_monthly_token_budget}
          hint="Al agotarse, los agentes dejan de responder hasta el día 1 del mes siguiente (UTC). El equipo recibe un aviso; el cliente, nada."
          onChange={(e) => setValue(e.target.value)}
        />
        <Button type="submit" disabled={saving || value === saved}>
          {saving ? "Guardando..." : "Guardar presupuesto"}
        </Button>
      </form>
    </section>
  );
}
