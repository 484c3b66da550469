import { describe, expect, it } from "vitest";
import { filterChips, withoutChips } from "../../../app/components/inbox/filter-chips";
import { listTime } from "../../../app/components/inbox/list-time";
import { filtersFromUrl } from "../../../app/lib/inbox";

const names = {
  agent: (id: string) => ({ a1: "Sofía" })[id],
  member: (id: string) => ({ u1: "Pedro Sanz" })[id],
  label: (id: string) => ({ l1: "VIP" })[id],
};
const chipsOf = (query: string) => filterChips(filtersFromUrl(new URLSearchParams(query)), names);

describe("the inbox's active filters as chips", () => {
  it("says each filter in the words of its select, in the filters' order", () => {
    const chips = chipsOf(
      "search=cita&status=pending&priority=high&stage=lead&agent=a1&assignee_id=u1&label_id=l1",
    );
    expect(chips.map((c) => c.text)).toEqual([
      "Estado: Pendiente",
      "Prioridad: Alta",
      "Etapa: Interesado",
      "Agente: Sofía",
      "Asignado a: Pedro Sanz",
      "Etiqueta: VIP",
    ]);
  });

  it("has no chip for the search (its box shows it) nor for an inbox without filters", () => {
    expect(chipsOf("search=cita")).toEqual([]);
    expect(chipsOf("")).toEqual([]);
  });

  it("names the special choices, and an id it no longer knows", () => {
    expect(chipsOf("assignee_id=me").map((c) => c.text)).toEqual(["Mis conversaciones"]);
    expect(chipsOf("assignee_id=none").map((c) => c.text)).toEqual(["Sin persona asignada"]);
    expect(chipsOf("agent=unassigned").map((c) => c.text)).toEqual(["Agente: Sin asignar"]);
    expect(chipsOf("agent=gone&label_id=gone").map((c) => c.text)).toEqual([
      "Agente: desconocido",
      "Etiqueta: desconocido",
    ]);
  });

  it("shows 'Solo sin asignar' instead of the agent it overrides", () => {
    expect(chipsOf("agent=a1&unassigned=true").map((c) => c.text)).toEqual(["Solo sin asignar"]);
  });

  it("removes one filter, or all of them and not the search", () => {
    const chips = chipsOf("search=cita&status=open&label_id=l1");
    expect(chips[0]!.clear).toEqual({ status: "" });
    expect(withoutChips(chips)).toEqual({ status: "", label: "" });
  });
});

describe("a row's time, as a chat list says it", () => {
  const now = new Date(2026, 10, 25, 18, 30); // Wednesday 25 November 2026, local time

  it("is the hour today, 'ayer', the weekday within the week, else the date", () => {
    expect(listTime(new Date(2026, 10, 25, 9, 5).toISOString(), now)).toBe("09:05");
    expect(listTime(new Date(2026, 10, 24, 23, 59).toISOString(), now)).toBe("ayer");
    expect(listTime(new Date(2026, 10, 21, 12, 0).toISOString(), now)).toBe("sábado");
    expect(listTime(new Date(2026, 10, 18, 12, 0).toISOString(), now)).toBe("18/11/26");
  });
});
