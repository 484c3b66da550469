import { Suspense, useId } from "react";
import { Await, Link, useAsyncError } from "react-router";
import type { KnowledgeEntry } from "../../../contracts/knowledge";
import { errorMessage } from "~/lib/api";

/** The entries, as the agents route's loader starts reading them (it does not wait for them). */
export type PickableKnowledge = Promise<Pick<KnowledgeEntry, "id" | "title">[]>;

interface KnowledgePickerProps {
  entries: PickableKnowledge;
  /** null: all the organization's entries; else only these. */
  value: string[] | null;
  error?: string;
  onChange: (value: string[] | null) => void;
}

/**
 * 'Conocimiento: Todo / Solo estas entradas' in the agent dialog. A failure to read the entries
 * says so here instead of breaking the agents screen.
 */
export function KnowledgePicker({ entries, value, error, onChange }: KnowledgePickerProps) {
  const id = useId();
  const limited = value !== null;

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
          <Suspense fallback={<p className="text-sm text-slate-600">Cargando...</p>}>
            <Await resolve={entries} errorElement={<EntriesFailed />}>
              {(list) =>
                list.length === 0 ? (
                  <p className="text-sm text-slate-600">
                    Aún no hay entradas.{" "}
                    <Link to="/agents/knowledge" className="text-emerald-700 underline">
                      Añade conocimiento
                    </Link>
                  </p>
                ) : (
                  list.map((entry) => (
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
                )
              }
            </Await>
          </Suspense>
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

function EntriesFailed() {
  return (
    <p className="text-sm text-red-700">
      No se pudieron cargar las entradas: {errorMessage(useAsyncError())}
    </p>
  );
}
