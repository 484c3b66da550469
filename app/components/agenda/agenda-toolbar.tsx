import type { Member } from "../../../worker/organizations/members-contract";
import type { Service } from "../../../worker/bookings/contract";
import { Button } from "~/components/ui/button";
import { useUrlState } from "~/lib/use-url-state";
import type { AgendaFilters } from "./data";
import { addDays, longDay, today, type AgendaView } from "./dates";

const SELECT_CLASS =
  "rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30";

const VIEWS: { value: AgendaView; label: string }[] = [
  { value: "day", label: "Día" },
  { value: "week", label: "Semana" },
];

/**
 * The Agenda's controls, all in the URL: the view (día or semana), the day (previous, next,
 * today or any date), the service and the person.
 */
export function AgendaToolbar({
  filters,
  services,
  members,
  timeZone,
}: {
  filters: AgendaFilters;
  services: Service[];
  members: Member[];
  timeZone: string;
}) {
  const [params, setParams] = useUrlState();
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  const step = filters.view === "week" ? 7 : 1;
  const stepWord = filters.view === "week" ? "semana" : "día";

  return (
    <div
      className="mb-4 flex flex-wrap items-end gap-3"
      role="group"
      aria-label="Vista de la agenda"
    >
      <div
        role="group"
        aria-label="Vista"
        className="inline-flex rounded-lg border border-slate-300"
      >
        {VIEWS.map((view) => (
          <button
            key={view.value}
            type="button"
            aria-pressed={filters.view === view.value}
            onClick={() => set({ view: view.value === "day" ? "" : view.value })}
            className="px-3 py-2 text-sm first:rounded-l-lg last:rounded-r-lg aria-pressed:bg-emerald-700 aria-pressed:text-white"
          >
            {view.label}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-1">
        <Button
          variant="secondary"
          aria-label={`${stepWord === "día" ? "Día" : "Semana"} anterior`}
          onClick={() => set({ date: addDays(filters.date, -step) })}
        >
          ←
        </Button>
        <Button variant="secondary" onClick={() => set({ date: today(timeZone) })}>
          Hoy
        </Button>
        <Button
          variant="secondary"
          aria-label={`${stepWord === "día" ? "Día" : "Semana"} siguiente`}
          onClick={() => set({ date: addDays(filters.date, step) })}
        >
          →
        </Button>
      </div>
      <label className="text-sm text-slate-700">
        <span className="mb-1 block font-medium">Fecha</span>
        <input
          type="date"
          value={filters.date}
          onChange={(e) => e.target.value && set({ date: e.target.value })}
          className={SELECT_CLASS}
          aria-description={longDay(filters.date)}
        />
      </label>
      <label className="text-sm text-slate-700">
        <span className="mb-1 block font-medium">Servicio</span>
        <select
          value={filters.serviceId}
          onChange={(e) => set({ service: e.target.value })}
          className={SELECT_CLASS}
        >
          <option value="">Todos los servicios</option>
          {services.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm text-slate-700">
        <span className="mb-1 block font-medium">Persona</span>
        <select
          value={filters.staffId}
          onChange={(e) => set({ staff: e.target.value })}
          className={SELECT_CLASS}
        >
          <option value="">Todo el equipo</option>
          {members.map((m) => (
            <option key={m.user_id} value={m.user_id}>
              {m.full_name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
