import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { toastDone, toastFailed } from "~/lib/outcome";
import { KNOWLEDGE_CAPS_TEXT, KNOWLEDGE_IMPORT_ACCEPT } from "../../../contracts/knowledge";
import type { KnowledgeActionResult } from "./actions";

/**
 * 'Importar archivo': a .txt, .md or PDF becomes an entry titled after the file. The caps are
 * said beside the button; a refusal (a scanned PDF, too big) comes back in Spanish.
 */
export function KnowledgeImport() {
  const fetcher = useFetcher<KnowledgeActionResult>();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result) return;
    if (result.ok) toastDone(result.message);
    else toastFailed("No se pudo importar el archivo", result.error);
  }, [fetcher.state, fetcher.data]);

  function upload(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.append("intent", "import");
    form.append("file", file);
    fetcher.submit(form, { method: "post", encType: "multipart/form-data" });
    if (input.current) input.current.value = "";
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <label
        htmlFor={id}
        aria-disabled={busy || undefined}
        className={`inline-flex cursor-pointer items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 transition-colors focus-within:ring-2 focus-within:ring-emerald-500/40 hover:bg-slate-50 ${busy ? "cursor-wait opacity-70" : ""}`}
      >
        {busy ? "Importando..." : "Importar archivo"}
        <input
          ref={input}
          id={id}
          type="file"
          accept={KNOWLEDGE_IMPORT_ACCEPT}
          disabled={busy}
          aria-describedby={`${id}-caps`}
          className="sr-only"
          onChange={(e) => upload(e.target.files?.[0])}
        />
      </label>
      <p id={`${id}-caps`} className="max-w-xs text-right text-xs text-slate-600">
        {KNOWLEDGE_CAPS_TEXT}
      </p>
    </div>
  );
}
