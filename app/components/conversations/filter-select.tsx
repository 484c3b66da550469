/** One of the inbox's filters: a labelled select whose first choice is "any" (no filter). */
export function FilterSelect({
  label,
  ariaLabel,
  value,
  anyLabel,
  options,
  onChange,
  disabled,
}: {
  label: string;
  ariaLabel: string;
  value: string;
  /** "Todos" or "Todas": the choice that filters nothing. */
  anyLabel: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <label className="text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      <select
        aria-label={ariaLabel}
        className="w-full rounded-lg border border-slate-300 px-2 py-2"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
