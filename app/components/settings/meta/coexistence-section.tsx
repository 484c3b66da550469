import type { HistoryImport } from "../../../../contracts/whatsapp";

/** Where the import of the app's chat history stands, in the console's words. */
export const HISTORY_IMPORT_LABELS: Record<HistoryImport["state"], string> = {
  requested: "Solicitado a Meta: esperando el historial",
  declined: "No compartido",
  importing: "Importando",
  done: "Completado",
  failed: "Error",
};

const messagesText = (n: number) => (n === 1 ? "1 mensaje importado" : `${n} mensajes importados`);

function HistoryImportStatus({ historyImport }: { historyImport: HistoryImport }) {
  const { state, progress, messages, error } = historyImport;
  const finished = state === "done";
  const failed = state === "declined" || state === "failed";
  const percent = Math.max(0, Math.min(100, Math.round(finished ? 100 : progress)));
  return (
    <div className="space-y-1.5">
      <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-slate-900">Historial de chats</span>
        <span data-state={state} className={failed ? "text-red-700" : "text-slate-700"}>
          {HISTORY_IMPORT_LABELS[state]}
        </span>
      </p>
      {!failed && (
        <div
          role="progressbar"
          aria-label="Importación del historial"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent} %`}
          className="h-2 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className="h-full rounded-full bg-emerald-600 transition-[width]"
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      <p className="text-xs text-slate-600">
        {failed ? "" : `${percent} % · `}
        {messagesText(messages)}
      </p>
      {failed && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-xs text-red-800">
          {error ??
            (state === "declined"
              ? "Se decidió no compartir el historial de la app: solo llegarán los mensajes nuevos."
              : "Meta no pudo enviar el historial de la app.")}
        </p>
      )}
    </div>
  );
}

/**
 * A number shared with the WhatsApp Business app (contract section 16): says so, shows the
 * import of the app's history (live: the tab follows `import_progress`), and what the app
 * keeps doing on its own, which the console cannot see or stop.
 */
export function CoexistenceSection({ historyImport }: { historyImport: HistoryImport | null }) {
  return (
    <section
      aria-label="Número compartido con la app WhatsApp Business"
      className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50/60 p-3"
    >
      <p className="text-sm text-emerald-950">
        Este número se comparte con la app WhatsApp Business del móvil: lo que respondas desde la
        app aparece aquí como «Enviado desde el móvil», y la IA deja de responder en esa
        conversación durante 24 horas.
      </p>
      {historyImport && <HistoryImportStatus historyImport={historyImport} />}
      <ul className="list-disc space-y-1 pl-5 text-xs text-slate-700">
        <li>
          La app sigue enviando por su cuenta su mensaje de ausencia y su mensaje de bienvenida, que
          responderían a la vez que la IA: desactívalos en la app (Herramientas para la empresa).
        </li>
        <li>
          Abre WhatsApp Business en el móvil al menos una vez cada 14 días: si no, Meta desconecta
          el número de la consola.
        </li>
      </ul>
    </section>
  );
}
