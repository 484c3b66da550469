import { useEffect, useId, useState } from "react";
import { toastDone, toastFailed } from "~/lib/outcome";
import { Button } from "~/components/ui/button";

/** Copies `value` to the clipboard; `label` names what is copied for screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toastDone("Copiado al portapapeles");
    } catch {
      toastFailed("No se pudo copiar. Selecciona el texto y cópialo manualmente.");
    }
  }

  return (
    <Button
      variant="secondary"
      onClick={copy}
      aria-label={`Copiar ${label}`}
      className="shrink-0 px-3 py-1.5"
    >
      <svg
        aria-hidden
        viewBox="0 0 20 20"
        className="h-4 w-4"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.6}
      >
        {copied ? (
          <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
        ) : (
          <path d="M7 7V4.5A1.5 1.5 0 018.5 3h7A1.5 1.5 0 0117 4.5v7a1.5 1.5 0 01-1.5 1.5H13M4.5 7h7A1.5 1.5 0 0113 8.5v7a1.5 1.5 0 01-1.5 1.5h-7A1.5 1.5 0 013 15.5v-7A1.5 1.5 0 014.5 7z" />
        )}
      </svg>
      <span aria-live="polite">{copied ? "Copiado" : "Copiar"}</span>
    </Button>
  );
}

/** A labelled read-only value (URL, token, snippet) with its copy button. */
export function CopyableValue({
  value,
  label,
  hint,
  multiline = false,
}: {
  value: string;
  label: string;
  hint?: string;
  multiline?: boolean;
}) {
  const id = useId();
  const common = {
    id,
    value,
    readOnly: true,
    spellCheck: false,
    "aria-describedby": hint ? `${id}-hint` : undefined,
    onFocus: (e: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => e.target.select(),
    className:
      "block min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30",
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-start gap-2">
        {multiline ? (
          <textarea {...common} rows={3} className={`${common.className} resize-none`} />
        ) : (
          <input type="text" {...common} />
        )}
        <CopyButton value={value} label={label} />
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
