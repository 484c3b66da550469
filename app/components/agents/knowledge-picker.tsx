import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { KnowledgeEntry } from "../../../worker/knowledge/contract";
import { api, errorMessage } from "~/lib/api";

interface KnowledgePickerProps {
  /** null: all the organization's entries; else only these. */
  value: string[] | null;
  error?: string;
  onChange: (value: string[] | null) => void;
}

/**
 * 'Conocimiento: Todo / Solo estas entradas' in the agent dialog. The entries are read when
 * the list is first shown; a failure says so here instead of breaking the agents screen.
 */
export function KnowledgePicker({ value, error, onChange }: KnowledgePickerProps) {
  const id = useId();
  const [entries, setEntries] = useState<KnowledgeEntry[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const limited = value !== null;

  useEffect(() => {
    if (!limited || entries) return;
    let current = true;
    api.get<KnowledgeEntry[]>("/knowledge").then(
      (list) => current && setEntries(list),
      (failure: unknown) => current && setLoadError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [limited, entries]);

  const toggle = (entryId: string, checked: boolean) =>
    onChange(checked ? [...(value ?? []), entryId] : (value ?? []).filter((v) => v !== entryId));

  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium text-slate-700">Conocimiento</legend>
      <div className="flex gap-4 text-sm text-slate-800">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-scope`}
            checked={!limited}
            onChange={() => onChange(null)}
            className="accent-emerald-600"
          />
          Todo
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${id}-scope`}
            checked={limited}
            onChange={() => onChange(value ?? [])}
            className="accent-emerald-600"
          />
          Solo estas entradas
        </label>
      </div>
      {limited && (
        <div className="mt-2 max-h-40 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2">
          {loadError ? (
            <p className="text-sm text-red-700">No se pudieron cargar las entradas: {loadError}</p>
          ) : !entries ? (
            <p className="text-sm text-slate-600">Cargando...</p>
          ) : entries.length === 0 ? (
            <p className="text-sm text-slate-600">
              Aún no hay entradas.{" "}
              <Link to="/agents/knowledge" className="text-emerald-700 underline">
                Añade conocimiento
              </Link>
            </p>
          ) : (
            entries.map((entry) => (
              <label key={entry.id} className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={value.includes(entry.id)}
                  onChange={(e) => toggle(entry.id, e.target.checked)}
                  className="mt-0.5 accent-emerald-600"
                />
                <span className="break-words">{entry.title}</span>
              </label>
            ))
          )}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
