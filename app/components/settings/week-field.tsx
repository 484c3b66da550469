import { WEEK_DAYS, type Week, type WeekDay } from "../../../contracts/bookings";
import { Button } from "~/components/ui/button";

export const DAY_NAMES: Record<WeekDay, string> = {
  mon: "Lunes",
  tue: "Martes",
  wed: "Miércoles",
  thu: "Jueves",
  fri: "Viernes",
  sat: "Sábado",
  sun: "Domingo",
};

const TIME_CLASS =
  "rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm aria-[invalid]:border-red-500 disabled:bg-slate-100";

/**
 * The week's opening intervals: each day a list of "desde - hasta" (a split shift is two), an
 * empty day is closed. `errors` are the API's messages by path (`business_hours.week.mon.0`).
 */
export function WeekField({
  week,
  onChange,
  errors,
  disabled,
}: {
  week: Week;
  onChange: (week: Week) => void;
  errors: Record<string, string>;
  disabled: boolean;
}) {
  const setDay = (day: WeekDay, intervals: [string, string][]) =>
    onChange({ ...week, [day]: intervals });
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-700">Horario de la semana</legend>
      <ul className="space-y-2">
        {WEEK_DAYS.map((day) => {
          const intervals = week[day];
          const error = Object.entries(errors).find(([path]) =>
            path.startsWith(`business_hours.week.${day}`),
          )?.[1];
          return (
            <li key={day} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="w-24 font-medium text-slate-800">{DAY_NAMES[day]}</span>
              {intervals.length === 0 && <span className="text-slate-600">Cerrado</span>}
              {intervals.map(([open, close], i) => {
                const replace = (at: 0 | 1, time: string) =>
                  setDay(
                    day,
                    intervals.map((interval, j) =>
                      j === i ? (at === 0 ? [time, interval[1]] : [interval[0], time]) : interval,
                    ),
                  );
                return (
                  <span key={i} className="inline-flex items-center gap-1">
                    <input
                      type="time"
                      aria-label={`${DAY_NAMES[day]}, tramo ${i + 1}: desde`}
                      value={open}
                      onChange={(e) => replace(0, e.target.value)}
                      aria-invalid={error ? true : undefined}
                      disabled={disabled}
                      className={TIME_CLASS}
                    />
                    –
                    <input
                      type="time"
                      aria-label={`${DAY_NAMES[day]}, tramo ${i + 1}: hasta`}
                      value={close}
                      onChange={(e) => replace(1, e.target.value)}
                      aria-invalid={error ? true : undefined}
                      disabled={disabled}
                      className={TIME_CLASS}
                    />
                    <Button
                      variant="ghost"
                      className="px-2 py-1"
                      aria-label={`Quitar tramo ${i + 1} del ${DAY_NAMES[day].toLowerCase()}`}
                      disabled={disabled}
                      onClick={() =>
                        setDay(
                          day,
                          intervals.filter((_, j) => j !== i),
                        )
                      }
                    >
                      ×
                    </Button>
                  </span>
                );
              })}
              <Button
                variant="secondary"
                className="px-2 py-1"
                aria-label={`Añadir tramo al ${DAY_NAMES[day].toLowerCase()}`}
                disabled={disabled}
                onClick={() => setDay(day, [...intervals, ["09:00", "14:00"]])}
              >
                Añadir tramo
              </Button>
              {error && <span className="w-full text-sm text-red-600">{error}</span>}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
