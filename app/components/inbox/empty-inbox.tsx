import { RetryReadButton } from "~/components/ui/retry-read-button";

/** No conversation at all yet: where they come from, and a way to look again. */
export function EmptyInbox({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
      <h2 className="font-semibold text-slate-900">Aún no hay conversaciones</h2>
      <p className="mx-auto mt-2 max-w-lg text-sm text-slate-600">
        Esta función está en desarrollo para tu cuenta: las conversaciones aparecerán aquí en cuanto
        conectes tu número de WhatsApp Business en Configuración y tus clientes escriban.
      </p>
      <RetryReadButton className="mt-4" onRetry={onRetry} />
    </section>
  );
}
