import { lazy, Suspense, useId, useState } from "react";
import { toastFailed } from "~/lib/outcome";
import { MAX_CAPTION_LENGTH, type OutboundMediaType } from "../../../contracts/conversations";
import type { QuickReply } from "../../../contracts/quick-replies";
import { Button } from "~/components/ui/button";
import { AttachButton } from "./attach-button";
import { useAutoGrow } from "./use-auto-grow";
import { Spinner } from "~/components/ui/spinner";
import type { TemplateToSend } from "./template-picker";

/** Templates are chosen rarely: their picker is a chunk of its own, fetched when shown. */
const LazyTemplatePicker = lazy(() =>
  import("./template-picker").then((m) => ({ default: m.TemplatePicker })),
);
function TemplatePicker(props: Parameters<typeof LazyTemplatePicker>[0]) {
  return (
    <Suspense fallback={<Spinner label="Cargando plantillas..." />}>
      <LazyTemplatePicker {...props} />
    </Suspense>
  );
}

interface ComposerProps {
  /** The text being written, kept by the parent so it survives the composer (window closing). */
  text: string;
  onTextChange: (text: string) => void;
  onSend: (text: string) => Promise<boolean>;
  /** A text message is on its way (the route action's pending submission): the box holds it. */
  sending: boolean;
  /** Saved answers offered when the text starts with "/". */
  quickReplies?: QuickReply[];
  /** When given: a paperclip uploads and sends a file, with the text as its caption. */
  onAttach?: (file: File, caption: string) => Promise<boolean>;
  /** When given: a 'Plantilla' button opens the template picker. */
  onSendTemplate?: (template: TemplateToSend) => Promise<boolean>;
}

/** Outside the 24-hour window: no free text nor files, only an approved template, and why. */
export function TemplateOnlyComposer({
  onSendTemplate,
}: {
  onSendTemplate: (template: TemplateToSend) => Promise<boolean>;
}) {
  return (
    <section aria-label="Responder con una plantilla" className="space-y-2 px-3 pb-3 pt-2">
      <p className="text-sm text-slate-700">
        No puedes escribir texto libre ni enviar archivos: han pasado más de 24 horas desde el
        último mensaje del cliente (o aún no ha escrito). Envía una plantilla aprobada por Meta;
        cuando el cliente responda podrás escribir de nuevo.
      </p>
      <TemplatePicker onSend={onSendTemplate} />
    </section>
  );
}

/**
 * Enter sends, Shift+Enter starts a new line (the hint under the box says so); blank text is
 * ignored; "/" offers quick replies; optionally a file (the text becomes its caption) or a
 * template. The box takes the whole width and grows with its text; its buttons sit below.
 */
export function Composer({
  text,
  onTextChange: setText,
  onSend,
  sending,
  quickReplies = [],
  onAttach,
  onSendTemplate,
}: ComposerProps) {
  const [uploading, setUploading] = useState<string | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const disabled = uploading !== null;
  const box = useAutoGrow(text);
  const hintId = useId();
  const hint = `Enter envía · Mayús+Enter nueva línea${quickReplies.length > 0 ? " · / respuestas rápidas" : ""}`;

  const typed = /^\/(\S*)$/.exec(text)?.[1]?.toLowerCase();
  const suggestions =
    typed === undefined ? [] : quickReplies.filter((r) => r.shortcut.startsWith(typed)).slice(0, 6);

  async function send() {
    const content = text.trim();
    if (!content || sending) return;
    if (await onSend(content)) setText("");
  }

  async function attach(file: File, type: OutboundMediaType) {
    // WhatsApp takes no caption on audio: the text stays in the box for a message of its own.
    const caption = type === "audio" ? "" : text.trim();
    if (caption.length > MAX_CAPTION_LENGTH) {
      toastFailed(
        "No se puede enviar el archivo",
        `El texto que acompaña al archivo no puede superar ${MAX_CAPTION_LENGTH} caracteres.`,
      );
      return;
    }
    if (!onAttach) return;
    setUploading(file.name);
    if ((await onAttach(file, caption)) && caption) setText("");
    setUploading(null);
  }

  async function sendTemplate(template: TemplateToSend) {
    if (!onSendTemplate) return false;
    const sent = await onSendTemplate(template);
    if (sent) setTemplatesOpen(false);
    return sent;
  }

  return (
    <div>
      {templatesOpen && onSendTemplate && (
        <section aria-label="Plantillas" className="border-b border-slate-200 p-3">
          <TemplatePicker onSend={sendTemplate} onCancel={() => setTemplatesOpen(false)} />
        </section>
      )}
      {uploading !== null && (
        <p role="status" className="flex items-center gap-2 px-3 pt-2 text-xs text-slate-600">
          <span
            aria-hidden
            className="h-3 w-3 animate-spin rounded-full border-2 border-emerald-600 border-t-transparent"
          />
          Subiendo {uploading}…
        </p>
      )}
      <form
        className="relative px-3 pb-3 pt-2"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        {suggestions.length > 0 && (
          <ul
            role="listbox"
            aria-label="Respuestas rápidas"
            className="absolute bottom-full left-3 mb-1 w-80 max-w-[90%] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg"
          >
            {suggestions.map((reply, index) => (
              <li key={reply.id} role="option" aria-selected={index === 0}>
                <button
                  type="button"
                  onClick={() => setText(reply.content)}
                  className={`block w-full px-3 py-2 text-left text-sm hover:bg-emerald-50 ${index === 0 ? "bg-slate-50" : ""}`}
                >
                  <span className="font-medium text-emerald-700">/{reply.shortcut}</span>
                  <span className="block truncate text-slate-600">{reply.content}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <label className="sr-only" htmlFor="composer">
          Escribe un mensaje
        </label>
        <textarea
          id="composer"
          ref={box}
          rows={1}
          value={text}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter" || e.shiftKey) return;
            e.preventDefault();
            // With suggestions open, Enter picks the first one instead of sending "/…".
            if (suggestions[0]) setText(suggestions[0].content);
            else void send();
          }}
          placeholder="Escribe un mensaje…"
          className="block w-full resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm disabled:bg-slate-100"
        />
        <div className="mt-2 flex items-center gap-2">
          {onAttach && (
            <AttachButton disabled={disabled || sending} onFile={(f, t) => void attach(f, t)} />
          )}
          {onSendTemplate && (
            <Button
              variant="secondary"
              className="px-3 py-1.5"
              aria-expanded={templatesOpen}
              title="Enviar una plantilla aprobada"
              disabled={disabled}
              onClick={() => setTemplatesOpen((o) => !o)}
            >
              Plantilla
            </Button>
          )}
          <p id={hintId} className="hidden min-w-0 flex-1 text-xs text-slate-600 sm:block">
            {hint}
          </p>
          <Button
            type="submit"
            className="ml-auto px-5 py-1.5"
            disabled={disabled || sending || !text.trim()}
          >
            Enviar
          </Button>
        </div>
      </form>
    </div>
  );
}
