import { FilterSelect } from "~/components/conversations/filter-select";
import { useTeam } from "./team";

/** The inbox's "Asignado a" and "Etiqueta" filters (`assignee_id`, `label_id` in the URL). */
export function TeamFilters({
  assignee,
  label,
  onChange,
}: {
  assignee: string;
  label: string;
  onChange: (changes: { assignee?: string; label?: string }) => void;
}) {
  const { members, labels } = useTeam();
  return (
    <>
      <FilterSelect
        label="Asignado a"
        ariaLabel="Filtrar por persona asignada"
        anyLabel="Todos"
        value={assignee}
        options={[
          { value: "none", label: "Sin asignar" },
          { value: "me", label: "Mis conversaciones" },
          ...members.map((m) => ({ value: m.user_id, label: m.full_name })),
        ]}
        onChange={(value) => onChange({ assignee: value })}
      />
      <FilterSelect
        label="Etiqueta"
        ariaLabel="Filtrar por etiqueta"
        anyLabel="Todas"
        value={label}
        options={labels.map((l) => ({ value: l.id, label: l.name }))}
        onChange={(value) => onChange({ label: value })}
      />
    </>
  );
}
