import type { Member } from "../../../contracts/members";
import type { Service } from "../../../contracts/bookings";
import { Button } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/field";
import { useUrlState } from "~/lib/use-url-state";
import type { AgendaFilters } from "./data";
import { addDays, longDay, today, type AgendaView } from "./dates";

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
  const unit = filters.view === "week" ? "Semana" : "Día";

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
          aria-label={`${unit} anterior`}
          onClick={() => set({ date: addDays(filters.date, -step) })}
        >
          ←
        </Button>
        <Button variant="secondary" onClick={() => set({ date: today(timeZone) })}>
          Hoy
        </Button>
        <Button
          variant="secondary"
          aria-label={`${unit} siguiente`}
          onClick={() => set({ date: addDays(filters.date, step) })}
        >
          →
        </Button>
      </div>
      <Field
        label="Fecha"
        type="date"
        className="w-44"
        value={filters.date}
        hint={longDay(filters.date)}
        onChange={(e) => e.target.value && set({ date: e.target.value })}
      />
      <SelectField
        label="Servicio"
        className="w-52"
        value={filters.serviceId}
        onChange={(e) => set({ service: e.target.value })}
        placeholder="Todos los servicios"
        options={services.map((s) => ({ value: s.id, label: s.name }))}
      />
      <SelectField
        label="Persona"
        className="w-52"
        value={filters.staffId}
        onChange={(e) => set({ staff: e.target.value })}
        placeholder="Todo el equipo"
        options={members.map((m) => ({ value: m.user_id, label: m.full_name }))}
      />
    </div>
  );
}
