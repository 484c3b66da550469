/**
 * The inbox's active filters as the chips under its search say them ("Estado: Pendiente"),
 * each with what removing it changes. Pure: the names of agents, members and labels are
 * looked up by the caller's functions.
 */
import { STAGE_LABELS } from "../../../contracts/sales";
import { PRIORITY_LABELS, STATUS_LABELS } from "~/components/conversations/labels";
import type { InboxFilters } from "~/lib/inbox";

export interface FilterChip {
  /** Which filter it is: React's key, and what a test or a reader can tell apart. */
  key: "status" | "priority" | "stage" | "agent" | "unassigned" | "assignee" | "label";
  text: string;
  /** What the filters become without it. */
  clear: Partial<InboxFilters>;
}

export interface FilterNames {
  agent: (id: string) => string | undefined;
  member: (id: string) => string | undefined;
  label: (id: string) => string | undefined;
}

/** An id the console no longer knows (an agent deleted since the link was shared). */
const UNKNOWN = "desconocido";

export function filterChips(filters: InboxFilters, names: FilterNames): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.status)
    chips.push({
      key: "status",
      text: `Estado: ${STATUS_LABELS[filters.status]}`,
      clear: { status: "" },
    });
  if (filters.priority)
    chips.push({
      key: "priority",
      text: `Prioridad: ${PRIORITY_LABELS[filters.priority]}`,
      clear: { priority: "" },
    });
  if (filters.stage)
    chips.push({
      key: "stage",
      text: `Etapa: ${STAGE_LABELS[filters.stage]}`,
      clear: { stage: "" },
    });
  // "Solo sin asignar" overrides the agent filter (the select is disabled meanwhile).
  if (filters.agent && !filters.unassigned) {
    const name =
      filters.agent === "unassigned" ? "Sin asignar" : (names.agent(filters.agent) ?? UNKNOWN);
    chips.push({ key: "agent", text: `Agente: ${name}`, clear: { agent: "" } });
  }
  if (filters.unassigned)
    chips.push({ key: "unassigned", text: "Solo sin asignar", clear: { unassigned: false } });
  if (filters.assignee) {
    const text =
      filters.assignee === "me"
        ? "Mis conversaciones"
        : filters.assignee === "none"
          ? "Sin persona asignada"
          : `Asignado a: ${names.member(filters.assignee) ?? UNKNOWN}`;
    chips.push({ key: "assignee", text, clear: { assignee: "" } });
  }
  if (filters.label)
    chips.push({
      key: "label",
      text: `Etiqueta: ${names.label(filters.label) ?? UNKNOWN}`,
      clear: { label: "" },
    });
  return chips;
}

/** What the filters become with none of the chips: the search stays. */
export const withoutChips = (chips: FilterChip[]): Partial<InboxFilters> =>
  Object.assign({}, ...chips.map((chip) => chip.clear)) as Partial<InboxFilters>;
