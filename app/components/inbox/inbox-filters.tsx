import { useEffect, useRef, useState } from "react";
import { CONVERSATION_STATUSES, PRIORITIES } from "../../../contracts/conversations";
import type { Agent } from "../../../contracts/agents";
import { CONVERSATION_STAGES, STAGE_LABELS } from "../../../contracts/sales";
import { FilterSelect } from "~/components/conversations/filter-select";
import { PRIORITY_LABELS, STATUS_LABELS } from "~/components/conversations/labels";
import { TeamFilters } from "~/components/team/team-filters";
import { useTeam } from "~/components/team/team";
import { Popover } from "~/components/ui/popover";
import { oneOf, type InboxFilters as Filters } from "~/lib/inbox";
import { filterChips, withoutChips, type FilterChip } from "./filter-chips";
import { Icon } from "~/components/ui/icon";

const SEARCH_DEBOUNCE_MS = 300;

/** How many filters are on, besides the search: what the "Filtros" button says. */
export function activeFilters(filters: Filters) {
  const { status, priority, stage, agent, unassigned, assignee, label } = filters;
  return [status, priority, stage, agent, unassigned, assignee, label].filter(Boolean).length;
}

type OnChange = (changes: Partial<Filters>, replace?: boolean) => void;

/**
 * The inbox's search and filters, all in the URL, in two lines: the search box beside a
 * "Filtros" button whose panel holds every filter, then the active filters as chips, each
 * removed by a click. The search writes the URL after a pause in typing (and back and
 * forward write the box).
 */
export function InboxFilters({
  filters,
  agents,
  onChange,
}: {
  filters: Filters;
  agents: Agent[];
  onChange: OnChange;
}) {
  const on = activeFilters(filters);
  const { members, labels } = useTeam();
  const chips = filterChips(filters, {
    agent: (id) => agents.find((a) => a.id === id)?.name,
    member: (id) => members.find((m) => m.user_id === id)?.full_name,
    label: (id) => labels.find((l) => l.id === id)?.name,
  });
  return (
    <div className="mb-3 space-y-2">
      <form role="search" className="flex gap-2" onSubmit={(e) => e.preventDefault()}>
        <SearchBox value={filters.search} onChange={onChange} />
        <Popover
          button={`Filtros${on > 0 ? ` (${on})` : ""}`}
          buttonClassName={`rounded-lg border px-3 py-2 text-sm font-medium ${on > 0 ? "border-emerald-600 bg-emerald-50 text-emerald-900" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
          align="end"
          panelClassName="w-[22rem]"
        >
          {(close) => (
            <FilterPanel
              filters={filters}
              agents={agents}
              onChange={(changes) => {
                onChange(changes);
                close();
              }}
              onClear={
                chips.length > 0
                  ? () => {
                      onChange(withoutChips(chips));
                      close();
                    }
                  : undefined
              }
            />
          )}
        </Popover>
      </form>
      {chips.length > 0 && <FilterChips chips={chips} onChange={onChange} />}
    </div>
  );
}

/** The search box's id: the "/" shortcut puts the focus there. */
export const SEARCH_FIELD_ID = "inbox-search";

/** The search box: the URL follows it after a pause; back and forward write it. */
function SearchBox({ value, onChange }: { value: string; onChange: OnChange }) {
  const [search, setSearch] = useState(value);
  const written = useRef(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (value !== written.current) setSearch((written.current = value));
  }, [value]);
  useEffect(() => {
    const trimmed = search.trim();
    if (trimmed === written.current) return;
    const timer = setTimeout(() => {
      written.current = trimmed;
      latest.current({ search: trimmed }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  return (
    <label className="relative min-w-0 flex-1">
      <span className="sr-only">Buscar</span>
      <Icon
        path="M17 11a6 6 0 1 1-12 0 6 6 0 0 1 12 0 M20 20l-4.5-4.5"
        className="pointer-events-none absolute left-2.5 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500"
      />
      <input
        id={SEARCH_FIELD_ID}
        type="search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder="Buscar"
        title="Por nombre, teléfono o texto de los mensajes"
        className="w-full rounded-lg border border-slate-300 bg-white py-2 pl-8 pr-3 text-sm"
      />
    </label>
  );
}

/** Every filter, in the "Filtros" panel. Each choice applies at once and closes it. */
function FilterPanel({
  filters,
  agents,
  onChange,
  onClear,
}: {
  filters: Filters;
  agents: Agent[];
  onChange: (changes: Partial<Filters>) => void;
  onClear?: () => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-3">
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
      <label className="col-span-2 flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={filters.unassigned}
          onChange={(e) => onChange({ unassigned: e.target.checked })}
        />
        Solo sin asignar
      </label>
      {onClear && (
        <button
          type="button"
          onClick={onClear}
          className="col-span-2 justify-self-start text-sm font-medium text-emerald-800 hover:underline"
        >
          Quitar filtros
        </button>
      )}
    </div>
  );
}

/** The active filters, each a chip that removes it. */
function FilterChips({ chips, onChange }: { chips: FilterChip[]; onChange: OnChange }) {
  return (
    <ul aria-label="Filtros activos" className="flex flex-wrap items-center gap-1.5">
      {chips.map((chip) => (
        <li key={chip.key}>
          <button
            type="button"
            aria-label={`Quitar filtro ${chip.text}`}
            onClick={() => onChange(chip.clear)}
            className="inline-flex items-center gap-1 rounded-full border border-emerald-200 bg-emerald-50 py-0.5 pl-2.5 pr-1.5 text-xs font-medium text-emerald-900 hover:bg-emerald-100"
          >
            {chip.text}
            <span aria-hidden className="text-emerald-700">
              ✕
            </span>
          </button>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <button
            type="button"
            onClick={() => onChange(withoutChips(chips))}
            className="px-1 text-xs font-medium text-slate-600 hover:text-slate-900 hover:underline"
          >
            Quitar todos
          </button>
        </li>
      )}
    </ul>
  );
}
