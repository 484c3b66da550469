import { useState } from "react";

const MAX_CONTACT_NAME = 120;

/**
 * The contact's name with a pencil to edit it in place: Enter saves, Escape cancels, an empty
 * name clears it (the phone number shows instead).
 */
export function ContactNameEditor({
  name,
  label,
  onSave,
}: {
  name: string | null;
  /** What the heading shows (the name, else the phone number). */
  label: string;
  onSave: (name: string) => Promise<void>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save() {
    if (draft === null) return;
    setSaving(true);
    await onSave(draft.trim());
    setSaving(false);
    setDraft(null);
  }

  if (draft === null) {
    return (
      <span className="flex min-w-0 items-center gap-1">
        <h2 className="truncate text-lg font-semibold">{label}</h2>
        <button
          type="button"
          className="rounded p-1 text-slate-500 hover:bg-slate-100"
          aria-label="Editar nombre del contacto"
          onClick={() => setDraft(name ?? "")}
        >
          <span aria-hidden="true">✎</span>
        </button>
      </span>
    );
  }
  return (
    <input
      aria-label="Nombre del contacto"
      className="w-full max-w-xs rounded-lg border border-slate-300 px-2 py-1 text-lg font-semibold focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
      autoFocus
      maxLength={MAX_CONTACT_NAME}
      value={draft}
      disabled={saving}
      placeholder="Sin nombre"
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") void save();
        if (e.key === "Escape") setDraft(null);
      }}
    />
  );
}
