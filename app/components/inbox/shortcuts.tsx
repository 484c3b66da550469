/**
 * The inbox's keyboard shortcuts (decision 0073): one key each, never while the person types
 * (a text field, a select, an editable element, an open list) nor with Ctrl, Meta (Cmd) or
 * Alt held, nor while a modal dialog is open. What a shortcut did is said in a live region
 * for screen readers (`announce`).
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";

/** The keys and what they do, as the help dialog ("?") lists them. */
export const SHORTCUTS = [
  { key: "j", label: "Conversación siguiente" },
  { key: "k", label: "Conversación anterior" },
  { key: "r", label: "Escribir una respuesta" },
  { key: "a", label: "Asignarme la conversación" },
  { key: "e", label: "Cerrar la conversación" },
  { key: "/", label: "Buscar conversaciones" },
  { key: "?", label: "Ver los atajos de teclado" },
] as const;

export type ShortcutKey = (typeof SHORTCUTS)[number]["key"];

/** Where the keys go to someone writing, or choosing in a list, rather than to the screen. */
function typingIn(target: EventTarget | null) {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest("input, textarea, select")) return true;
  return target.closest('[role="listbox"], [role="menu"], [role="combobox"]') !== null;
}

/**
 * Runs `handlers[key]` for a shortcut pressed anywhere on the screen while the component is
 * mounted. The keys are the characters typed (`?` is Shift plus a key on most keyboards).
 */
export function useShortcuts(handlers: Partial<Record<ShortcutKey, () => void>>) {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (typingIn(event.target)) return;
      // A modal dialog (the help itself, a sheet, a confirmation) has the keyboard.
      if (document.querySelector('[aria-modal="true"]')) return;
      const handler = latest.current[event.key as ShortcutKey];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}

// What the last shortcut did, for the live region.
let said = { text: "", at: 0 };
const listeners = new Set<() => void>();

/** Says `text` to screen readers (the same text twice in a row is said again). */
export function announce(text: string) {
  said = { text, at: said.at + 1 };
  for (const listener of listeners) listener();
}

/** The live region `announce` speaks through: once, on the screens with shortcuts. */
export function ShortcutAnnouncer() {
  const { text, at } = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => said,
    () => said,
  );
  // What was said on a screen left behind is not shown on the next one.
  useEffect(
    () => () => {
      said = { text: "", at: said.at + 1 };
    },
    [],
  );
  return (
    <p role="status" aria-live="polite" aria-label="Atajos de teclado" className="sr-only">
      {/* A new node each time: a repeated text is read again. */}
      <span key={at}>{text}</span>
    </p>
  );
}

/** "Atajos de teclado": the list `?` opens. */
export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Atajos de teclado" onClose={onClose}>
      <p className="mt-1 text-sm text-slate-600">
        En las conversaciones, mientras no estés escribiendo en un campo.
      </p>
      <dl className="mt-4 divide-y divide-slate-200">
        {SHORTCUTS.map(({ key, label }) => (
          <div key={key} className="flex items-center justify-between gap-4 py-2">
            <dt className="text-sm text-slate-800">{label}</dt>
            <dd>
              <kbd className="inline-block min-w-7 rounded border border-slate-300 bg-slate-50 px-2 py-0.5 text-center font-mono text-sm text-slate-900">
                {key}
              </kbd>
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-5 flex justify-end">
        <Button onClick={onClose}>Cerrar</Button>
      </div>
    </Modal>
  );
}
