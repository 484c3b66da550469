import { useState } from "react";
import type { AiUsage } from "../../../contracts/agents";
import { useLiveEvent } from "~/lib/use-live";

const tokens = (n: number) => n.toLocaleString("es-ES");

/** The later of two readings: a later month, else more tokens spent (ties keep `loaded`). */
const later = (loaded: AiUsage | null, live: AiUsage | null) => {
  if (!live || !loaded) return live ?? loaded;
  if (live.month !== loaded.month) return live.month > loaded.month ? live : loaded;
  return live.tokens_used > loaded.tokens_used ? live : loaded;
};

/**
 * "Uso de IA este mes: X de Y tokens", with a bar; red once the budget is spent. The route
 * loads the reading (null when it could not: the meter stays hidden); a refused reply brings a
 * newer one live.
 */
export function AiUsageMeter({ usage: loaded }: { usage: AiUsage | null }) {
  const [live, setLive] = useState<AiUsage | null>(null);
  useLiveEvent<AiUsage>("ai_budget_exhausted", setLive);
  const usage = later(loaded, live);

  if (!usage) return null;
  const spent = usage.budget > 0 ? Math.min(1, usage.tokens_used / usage.budget) : 1;
  const exhausted = usage.tokens_used >= usage.budget;
  return (
    <section
      aria-label="Uso de IA"
      className="mb-4 rounded-xl border border-slate-200 bg-white p-4"
    >
      <p className="text-sm text-slate-700">
        Uso de IA este mes: <strong>{tokens(usage.tokens_used)}</strong> de{" "}
        <strong>{tokens(usage.budget)}</strong> tokens
      </p>
      <div
        role="progressbar"
        aria-label="Presupuesto mensual de IA usado"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(spent * 100)}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={`h-full ${exhausted ? "bg-red-600" : spent > 0.8 ? "bg-amber-500" : "bg-emerald-600"}`}
          style={{ width: `${spent * 100}%` }}
        />
      </div>
      {exhausted && (
        <p className="mt-2 text-sm text-red-700">
          Presupuesto agotado: los agentes no responden hasta el mes que viene o hasta que la
          persona propietaria lo amplíe en Configuración.
        </p>
      )}
    </section>
  );
}
