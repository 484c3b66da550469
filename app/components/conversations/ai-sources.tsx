import type { AiSource } from "../../../contracts/conversations";

/**
 * 'Fuentes' under an AI answer: the knowledge entries the agent was given for it (in the
 * inbox and in the sandbox). Nothing when it had none.
 */
export function AiSources({ sources }: { sources: AiSource[] }) {
  if (sources.length === 0) return null;
  return (
    <div className="mt-1 flex max-w-[80%] flex-wrap items-center justify-end gap-1 text-xs text-slate-600">
      <span className="font-medium">Fuentes:</span>
      <ul className="contents" aria-label="Fuentes">
        {sources.map((source) => (
          <li
            key={source.id}
            className="rounded-full border border-slate-200 bg-white px-2 py-0.5 text-slate-700"
          >
            {source.title}
          </li>
        ))}
      </ul>
    </div>
  );
}
