import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import { useOrganizationSave } from "./organization-save";

/**
 * Configuración > Organización, for the owner: the monthly AI budget in tokens. Past it the
 * agents stop until the 1st of next month (UTC) or until it rises.
 */
export function AiBudgetSection() {
  const { organization } = useAuth();
  const saved = String(organization?.ai_monthly_token_budget ?? "");
  const [value, setValue] = useState(saved);
  const { save, saving, errors } = useOrganizationSave({
    success: "Presupuesto de IA actualizado",
    failure: "Error al guardar el presupuesto de IA",
  });
  if (!organization) return null;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    void save({ ai_monthly_token_budget: value.trim() === "" ? NaN : Number(value) });
  }

  return (
    <section
      aria-labelledby="ai-budget-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-6"
    >
      <h2 id="ai-budget-title" className="text-lg font-semibold text-slate-900">
        Presupuesto mensual de IA
      </h2>
      <form onSubmit={submit} noValidate className="mt-4 flex flex-wrap items-end gap-3">
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
