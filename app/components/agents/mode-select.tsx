import { AGENT_MODES, type AgentMode } from "../../../contracts/agents";

/** How each mode reads in the console, with what it does in one line. */
export const MODE_LABELS: Record<AgentMode, { label: string; help: string }> = {
  auto: { label: "Automático", help: "Responde a los clientes por WhatsApp." },
  draft: {
    label: "Borrador",
    help: "Prepara la respuesta como «Sugerencia de IA»; una persona la revisa y la envía.",
  },
  off: { label: "Desactivado", help: "No responde ni prepara nada (sí sugiere si se lo pides)." },
};

/** The agent's mode, as three radio buttons with their help. */
export function ModeSelect({
  value,
  onChange,
}: {
  value: AgentMode;
  onChange: (mode: AgentMode) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-slate-700">Modo</legend>
      <div className="space-y-1">
        {AGENT_MODES.map((mode) => (
          <label
            key={mode}
            className="flex cursor-pointer items-start gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm has-[:checked]:border-emerald-600 has-[:checked]:bg-emerald-50"
          >
            <input
              type="radio"
              name="agent-mode"
              value={mode}
              checked={value === mode}
              onChange={() => onChange(mode)}
              className="mt-0.5 accent-emerald-600"
            />
            <span>
              <span className="font-medium text-slate-900">{MODE_LABELS[mode].label}</span>
              <span className="block text-xs text-slate-600">{MODE_LABELS[mode].help}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The mode on the agent's card. */
export function ModeBadge({ mode }: { mode: AgentMode }) {
  const style =
    mode === "auto"
      ? "bg-emerald-100 text-emerald-800"
      : mode === "draft"
        ? "bg-violet-100 text-violet-800"
        : "bg-slate-200 text-slate-700";
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${style}`}
      title={MODE_LABELS[mode].help}
    >
      Modo: {MODE_LABELS[mode].label}
    </span>
  );
}
