import { useState } from "react";
import { Button } from "~/components/ui/button";

/** The days the business is closed whatever the week says (holidays), added and removed one by one. */
export function ClosedDatesField({
  dates,
  onChange,
  error,
  disabled,
}: {
  dates: string[];
  onChange: (dates: string[]) => void;
  error?: string;
  disabled: boolean;
}) {
  const [adding, setAdding] = useState("");
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-700">Días cerrados</legend>
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="date"
          aria-label="Día cerrado"
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          disabled={disabled}
          className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
        />
        <Button
          variant="secondary"
          className="px-2 py-1"
          disabled={disabled || !adding || dates.includes(adding)}
          onClick={() => {
            onChange([...dates, adding].sort());
            setAdding("");
          }}
        >
          Añadir día cerrado
        </Button>
      </div>
      {dates.length > 0 && (
        <ul aria-label="Días cerrados" className="mt-2 flex flex-wrap gap-2">
          {dates.map((date) => (
            <li
              key={date}
              className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm"
            >
              {date}
              <button
                type="button"
                aria-label={`Quitar ${date}`}
                disabled={disabled}
                onClick={() => onChange(dates.filter((d) => d !== date))}
                className="text-slate-600 hover:text-slate-900"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <p className="mt-1 text-sm text-red-600">{error}</p>}
    </fieldset>
  );
}
