import { Link } from "react-router";
import type { MarketingAllowanceView } from "../../../contracts/broadcasts";
import { formatMoney } from "~/components/sales/money";
import { useAuth } from "~/lib/auth";
import { count } from "./labels";

/** What the owner's budget leaves this month, in one sentence ("" when it has no cap). */
export function budgetLeftText(budget: NonNullable<MarketingAllowanceView["budget"]>) {
  const parts = [];
  if (budget.monthly_sends !== null) {
    parts.push(`quedan ${count(budget.sends_left ?? 0)} envíos de ${count(budget.monthly_sends)}`);
  }
  if (budget.monthly_cost !== null) {
    parts.push(
      budget.cost_left === null
        ? `el gasto no se puede estimar en ${budget.currency}`
        : `quedan ${formatMoney(budget.cost_left, budget.currency)} de ${formatMoney(budget.monthly_cost, budget.currency)}`,
    );
  }
  return parts.join(" y ");
}

/** Marketing messages a customer may get, said as the owner set it. */
export const frequencyText = ({ max, days }: MarketingAllowanceView["frequency"]) =>
  `Cada cliente recibe como máximo ${max} ${max === 1 ? "promoción" : "promociones"} cada ${days} ${days === 1 ? "día" : "días"} (difusiones y seguimientos de marketing); quien ya las recibió se queda fuera.`;

/**
 * Where a broadcast is prepared: the month's marketing budget left and the frequency cap
 * (decision 0083), with the way to change them for the owner.
 */
export function MarketingAllowanceNote({ allowance }: { allowance: MarketingAllowanceView }) {
  const { role } = useAuth();
  const { budget } = allowance;
  return (
    <div
      aria-label="Límites de marketing"
      className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700"
    >
      <p>
        {budget
          ? `Presupuesto de marketing de este mes: ${budgetLeftText(budget)}.`
          : "Sin presupuesto mensual de marketing."}
      </p>
      <p className="mt-1">{frequencyText(allowance.frequency)}</p>
      {role === "owner" && (
        <Link
          to="/settings/organization#marketing-limits"
          className="mt-1 inline-block font-medium text-emerald-800 hover:underline"
        >
          Cambiar presupuesto y frecuencia
        </Link>
      )}
    </div>
  );
}
