import { useId } from "react";
import type { FieldErrors } from "~/lib/forms";
import { quietHoursSentence, type OrganizationTime } from "./organization-time";
import { inQuietHours } from "./zoned-time";

export interface ScheduleValues {
  /** `now`: sent when the person confirms it; `later`: at `send_at`. */
  when: "now" | "later";
  /** A `datetime-local` value in the organization's time zone. */
  send_at: string;
}

const RADIO = "h-4 w-4 accent-emerald-600";

/**
 * Send it once reviewed, or at a date and time of the organization's clock; the quiet hours
 * are said, and a time inside them says when it will really go.
 */
export function ScheduleField({
  value,
  clock,
  minimum,
  errors,
  disabled,
  onChange,
}: {
  value: ScheduleValues;
  clock: OrganizationTime;
  /** The earliest value to offer (now, in the organization's time zone). */
  minimum: string;
  errors: FieldErrors;
  disabled: boolean;
  onChange: (value: ScheduleValues) => void;
}) {
  const id = useId();
  const quiet =
    value.when === "later" &&
    value.send_at !== "" &&
    inQuietHours(value.send_at, clock.quietStart, clock.quietEnd);
  const error = errors.send_at;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Cuándo se envía</legend>
      <p className="mt-0.5 text-xs text-slate-500">{quietHoursSentence(clock)}</p>
      <div className="mt-2 space-y-2">
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={`${id}-when`}
            className={`${RADIO} mt-0.5`}
            checked={value.when === "now"}
            disabled={disabled}
            onChange={() => onChange({ ...value, when: "now" })}
          />
          <span>
            Al confirmar el envío
            <span className="block text-xs text-slate-500">
              Primero se guarda como borrador: revisas la vista previa y la envías.
            </span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input
            type="radio"
            name={`${id}-when`}
            className={`${RADIO} mt-0.5`}
            checked={value.when === "later"}
            disabled={disabled}
            onChange={() => onChange({ ...value, when: "later" })}
          />
          <span>
            Programar para una fecha y hora
            <span className="block text-xs text-slate-500">
              Se programa al confirmarla después de ver la vista previa.
            </span>
          </span>
        </label>
      </div>
      {value.when === "later" && (
        <div className="mt-3 max-w-xs">
          <label htmlFor={`${id}-at`} className="mb-1 block text-sm font-medium text-slate-700">
            Fecha y hora ({clock.timeZone})
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            min={minimum}
            value={value.send_at}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : quiet ? `${id}-quiet` : undefined}
            onChange={(e) => onChange({ ...value, send_at: e.target.value })}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 aria-[invalid]:border-red-500"
          />
          {error ? (
            <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
              {error}
            </p>
          ) : (
            quiet && (
              <p id={`${id}-quiet`} className="mt-1 text-sm text-amber-800">
                Esa hora cae en el horario de descanso: se enviará a las {clock.quietEnd}.
              </p>
            )
          )}
        </div>
      )}
    </fieldset>
  );
}
