/** The page's range, "Desde" and "Hasta" (each day in the URL, `date_from` and `date_to`). */
export function DateRangeForm({
  from,
  to,
  onChange,
}: {
  from: string;
  to: string;
  onChange: (name: "date_from" | "date_to", value: string) => void;
}) {
  const input = (label: string, name: "date_from" | "date_to", value: string, bound: object) => (
    <label className="text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      <input
        type="date"
        value={value}
        {...bound}
        onChange={(e) => onChange(name, e.target.value)}
        className="rounded-lg border border-slate-300 px-3 py-2"
      />
    </label>
  );
  return (
    <form className="mb-6 flex flex-wrap items-end gap-4" onSubmit={(e) => e.preventDefault()}>
      {input("Desde", "date_from", from, { max: to })}
      {input("Hasta", "date_to", to, { min: from })}
      {from > to && (
        <p className="text-sm text-red-600">La fecha inicial debe ser anterior a la final.</p>
      )}
    </form>
  );
}
