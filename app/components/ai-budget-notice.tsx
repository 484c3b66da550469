import { useState } from "react";
import { Link } from "react-router";
import type { AiUsage } from "../../contracts/agents";
import { useAuth } from "~/lib/auth";
import { useLiveEvent } from "~/lib/use-live";

/**
 * One persistent notice for owners and admins when the organization spends its monthly AI
 * budget: every refused reply publishes `ai_budget_exhausted`, the notice shows once (per month,
 * until closed) instead of a toast each time.
 */
export function AiBudgetNotice() {
  const { role } = useAuth();
  const [usage, setUsage] = useState<AiUsage | null>(null);
  const [closedMonth, setClosedMonth] = useState<string | null>(null);
  useLiveEvent<AiUsage>("ai_budget_exhausted", (event) => {
    if (event.month !== closedMonth) setUsage(event);
  });
  if (!usage || (role !== "owner" && role !== "admin")) return null;
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <p className="flex-1">
        Se agotó el presupuesto mensual de IA ({usage.tokens_used.toLocaleString("es-ES")} de{" "}
        {usage.budget.toLocaleString("es-ES")} tokens): los agentes no responden a los clientes
        hasta el mes que viene.{" "}
        {role === "owner" ? (
          <Link to="/settings/organization" className="font-medium underline">
            Ampliar el presupuesto
          </Link>
        ) : (
          "La persona propietaria puede ampliarlo."
        )}
      </p>
      <button
        type="button"
        onClick={() => {
          setClosedMonth(usage.month);
          setUsage(null);
        }}
        className="rounded-lg border border-red-300 bg-white px-3 py-1 font-medium text-red-800 hover:bg-red-100"
      >
        Cerrar
      </button>
    </div>
  );
}
