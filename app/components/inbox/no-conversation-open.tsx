import { Icon } from "~/components/ui/icon";

/** Beside the list on a wide screen, before a conversation is chosen. */
export function NoConversationOpen() {
  return (
    <section
      aria-label="Ninguna conversación abierta"
      className="flex h-full flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center"
    >
      <Icon path="M4 5h16v11H8l-4 4z" className="h-10 w-10 text-slate-300" strokeWidth={1.5} />
      <p className="mt-3 font-medium text-slate-800">Elige una conversación</p>
      <p className="mt-1 max-w-sm text-sm text-slate-600">
        Sus mensajes y el cuadro para responder aparecen aquí, con la lista a mano.
      </p>
    </section>
  );
}
