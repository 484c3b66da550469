import { useTeam } from "./team";

const fieldClass = "w-full rounded-lg border border-slate-300 px-2 py-2";

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
      <label className="text-sm">
        <span className="mb-1 block font-medium text-slate-700">Asignado a</span>
        <select
          aria-label="Filtrar por persona asignada"
          className={fieldClass}
          value={assignee}
          onChange={(e) => onChange({ assignee: e.target.value })}
        >
          <option value="">Todos</option>
          <option value="none">Sin asignar</option>
          <option value="me">Mis conversaciones</option>
          {members.map((m) => (
            <option key={m.user_id} value={m.user_id}>
              {m.full_name}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm">
        <span className="mb-1 block font-medium text-slate-700">Etiqueta</span>
        <select
          aria-label="Filtrar por etiqueta"
          className={fieldClass}
          value={label}
          onChange={(e) => onChange({ label: e.target.value })}
        >
          <option value="">Todas</option>
          {labels.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
