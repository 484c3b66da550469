import { useEffect, useId, useRef, useState } from "react";
import { CONVERSATION_STATUSES, PRIORITIES } from "../../../worker/conversations/contract";
import type { Agent } from "../../../worker/agents/contract";
import { CONVERSATION_STAGES, STAGE_LABELS } from "../../../worker/sales/contract";
import { FilterSelect } from "~/components/conversations/filter-select";
import { PRIORITY_LABELS, STATUS_LABELS } from "~/components/conversations/labels";
import { TeamFilters } from "~/components/team/team-filters";
import { oneOf, type InboxFilters as Filters } from "~/lib/inbox";

const SEARCH_DEBOUNCE_MS = 300;

/** How many filters are on, besides the search: what the folded "Filtros" button says. */
export function activeFilters(filters: Filters) {
  const { status, priority, stage, agent, unassigned, assignee, label } = filters;
  return [status, priority, stage, agent, unassigned, assignee, label].filter(Boolean).length;
}

/**
 * The inbox's search and filters, all in the URL. The search writes it after a pause in
 * typing (and back and forward write the box). On a phone the filters fold behind one
 * "Filtros" button that says how many are on, so the list is on the first screen.
 */
export function InboxFilters({
  filters,
  agents,
  beside,
  onChange,
}: {
  filters: Filters;
  agents: Agent[];
  /** The list is beside an open conversation: two columns. */
  beside: boolean;
  onChange: (changes: Partial<Filters>, replace?: boolean) => void;
}) {
  const [search, setSearch] = useState(filters.search);
  const written = useRef(filters.search);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (filters.search !== written.current) setSearch((written.current = filters.search));
  }, [filters.search]);
  useEffect(() => {
    const value = search.trim();
    if (value === written.current) return;
    const timer = setTimeout(() => {
      written.current = value;
      latest.current({ search: value }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const [unfolded, setUnfolded] = useState(false);
  const foldId = useId();
  const on = activeFilters(filters);
  const columns = beside ? "grid-cols-2" : "sm:grid-cols-2 lg:grid-cols-6";

  return (
    <form
      role="search"
      className={`mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 ${columns}`}
      onSubmit={(e) => e.preventDefault()}
    >
      <label className={`text-sm ${beside ? "col-span-2" : "lg:col-span-2"}`}>
        <span className="mb-1 block font-medium text-slate-700">Buscar</span>
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Nombre, teléfono o texto del mensaje"
          className="w-full rounded-lg border border-slate-300 px-3 py-2"
        />
      </label>
      <button
        type="button"
        aria-expanded={unfolded}
        aria-controls={foldId}
        onClick={() => setUnfolded((u) => !u)}
        className="rounded-lg border border-slate-300 px-3 py-2 text-left text-sm font-medium text-slate-700 sm:hidden"
      >
        Filtros{on > 0 ? ` (${on})` : ""}
      </button>
      <div
        id={foldId}
        className={`${unfolded ? "grid" : "hidden"} gap-3 sm:contents ${beside ? "col-span-2 grid-cols-2" : ""}`}
      >
        <FilterSelect
          label="Estado"
          ariaLabel="Filtrar por estado"
          anyLabel="Todos"
          value={filters.status}
          options={CONVERSATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          onChange={(value) => onChange({ status: oneOf(value, CONVERSATION_STATUSES) })}
        />
        <FilterSelect
          label="Prioridad"
          ariaLabel="Filtrar por prioridad"
          anyLabel="Todas"
          value={filters.priority}
          options={PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
          onChange={(value) => onChange({ priority: oneOf(value, PRIORITIES) })}
        />
        <FilterSelect
          label="Etapa"
          ariaLabel="Filtrar por etapa"
          anyLabel="Todas"
          value={filters.stage}
          options={CONVERSATION_STAGES.map((s) => ({ value: s, label: STAGE_LABELS[s] }))}
          onChange={(value) => onChange({ stage: oneOf(value, CONVERSATION_STAGES) })}
        />
        <FilterSelect
          label="Agente"
          ariaLabel="Filtrar por agente"
          anyLabel="Todos"
          value={filters.agent}
          disabled={filters.unassigned}
          options={[
            { value: "unassigned", label: "Sin asignar" },
            ...agents.map((a) => ({ value: a.id, label: a.name })),
          ]}
          onChange={(agent) => onChange({ agent })}
        />
        <TeamFilters
          assignee={filters.assignee}
          label={filters.label}
          onChange={(changes) => onChange(changes)}
        />
        <label
          className={`flex items-center gap-2 text-sm text-slate-700 ${beside ? "col-span-2" : "sm:col-span-2 lg:col-span-4"}`}
        >
          <input
            type="checkbox"
            checked={filters.unassigned}
            onChange={(e) => onChange({ unassigned: e.target.checked })}
          />
          Solo sin asignar
        </label>
      </div>
    </form>
  );
}
