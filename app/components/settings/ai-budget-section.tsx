import { useAuth } from "~/lib/auth";
import { OrganizationNumberForm } from "./organization-number-form";

/**
 * Configuración > Organización, for the owner: the monthly AI budget in tokens. Past it the
 * agents stop until the 1st of next month (UTC) or until it rises.
 */
export function AiBudgetSection() {
  const { organization } = useAuth();
  if (!organization) return null;
  return (
    <section
      aria-labelledby="ai-budget-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-6"
    >
      <h2 id="ai-budget-title" className="text-lg font-semibold text-slate-900">
        Presupuesto mensual de IA
      </h2>
      <OrganizationNumberForm
        setting="ai_monthly_token_budget"
        saved={organization.ai_monthly_token_budget}
        label="Tokens al mes"
        hint="Al agotarse, los agentes dejan de responder hasta el día 1 del mes siguiente (UTC). El equipo recibe un aviso; el cliente, nada."
        submitLabel="Guardar presupuesto"
        says={{
          success: "Presupuesto de IA actualizado",
          failure: "Error al guardar el presupuesto de IA",
        }}
        className="mt-4 flex flex-wrap items-end gap-3"
        fieldClassName="w-64"
      />
    </section>
  );
}
