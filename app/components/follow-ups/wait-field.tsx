import { Field, SelectField } from "~/components/ui/field";
import { WAIT_UNITS, type WaitUnit } from "./words";

const UNIT_OPTIONS = WAIT_UNITS.map(({ value, label }) => ({ value, label }));

/** How long without an answer: a number and its unit (minutes, hours, days). */
export function WaitField({
  amount,
  unit,
  error,
  disabled,
  onChange,
}: {
  amount: string;
  unit: WaitUnit;
  error?: string;
  disabled: boolean;
  onChange: (amount: string, unit: WaitUnit) => void;
}) {
  return (
    <div className="grid max-w-lg grid-cols-[minmax(0,1fr)_8rem] items-start gap-3">
      <Field
        label="Tiempo sin respuesta"
        required
        type="number"
        inputMode="numeric"
        min={1}
        placeholder="2"
        value={amount}
        error={error}
        disabled={disabled}
        hint="Desde el último mensaje de tu equipo. Entre 1 minuto y 30 días."
        onChange={(e) => onChange(e.target.value, unit)}
      />
      <SelectField
        label="Unidad"
        options={UNIT_OPTIONS}
        value={unit}
        disabled={disabled}
        onChange={(e) => onChange(amount, e.target.value as WaitUnit)}
      />
    </div>
  );
}
