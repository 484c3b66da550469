import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from "@headlessui/react";
import type { LabelRef } from "../../../contracts/team-inbox";
import { useTeam } from "./team";

/** Puts the organization's labels on a conversation (several at once). */
export function LabelPicker({
  value,
  onChange,
}: {
  value: LabelRef[];
  onChange: (labelIds: string[]) => void;
}) {
  const { labels } = useTeam();
  const chosen = value.map((l) => l.id);
  return (
    <Listbox value={chosen} onChange={onChange} multiple>
      <div className="relative">
        <ListboxButton
          aria-label="Etiquetas"
          className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
        >
          Etiquetas{chosen.length > 0 ? ` (${chosen.length})` : ""}
        </ListboxButton>
        <ListboxOptions
          anchor="bottom end"
          className="z-50 mt-1 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg focus:outline-none"
        >
          {labels.length === 0 && (
            <p className="px-3 py-2 text-sm text-slate-600">
              Aún no hay etiquetas: créalas en Configuración.
            </p>
          )}
          {labels.map((label) => (
            <ListboxOption
              key={label.id}
              value={label.id}
              className="flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm data-[focus]:bg-slate-100"
            >
              {({ selected }) => (
                <>
                  <span aria-hidden className="w-4 text-emerald-700">
                    {selected ? "✓" : ""}
                  </span>
                  <span
                    aria-hidden
                    className="h-3 w-3 rounded-full"
                    style={{ backgroundColor: label.color }}
                  />
                  {label.name}
                </>
              )}
            </ListboxOption>
          ))}
        </ListboxOptions>
      </div>
    </Listbox>
  );
}
