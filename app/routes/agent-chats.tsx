import { useCallback, useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import type { Agent } from "../../worker/agents/contract";
import type {
  Conversation,
  Message,
  MessageEvent,
  MessagePage,
} from "../../worker/conversations/contract";
import { Composer } from "~/components/conversations/composer";
import { MessageBubble } from "~/components/conversations/message-bubble";
import { contactLabel } from "~/components/conversations/selectors";
import { PageHeader } from "~/components/page-header";
import { Spinner } from "~/components/ui/spinner";
import { api, errorMessage } from "~/lib/api";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

export const meta = () => [{ title: "Chats del agente — Atiende" }];

/** One agent's conversations as contacts, and the selected one's messages. */
export default function AgentChats() {
  const { agentId = "" } = useParams();
  const [agent, setAgent] = useState<Agent | null>(null);
  const [contacts, setContacts] = useState<Conversation[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);

  const loadContacts = useCallback(async () => {
    try {
      const [a, list] = await Promise.all([
        api.get<Agent>(`/agents/${agentId}`),
        api.get<Conversation[]>(`/agents/${agentId}/conversations`),
      ]);
      setAgent(a);
      setContacts(list);
    } catch (error) {
      toast.error("Error al cargar las conversaciones", { description: errorMessage(error) });
      setContacts([]);
    }
  }, [agentId]);

  useEffect(() => {
    void loadContacts();
  }, [loadContacts]);

  useEffect(() => {
    if (!selected) return;
    api.get<MessagePage>(`/conversations/${selected}/messages?limit=20`).then(
      (page) => setMessages(page.messages),
      (error: unknown) =>
        toast.error("Error al cargar los mensajes", { description: errorMessage(error) }),
    );
  }, [selected]);

  const onMessage = ({ message, conversation }: MessageEvent) => {
    if (conversation.agent_id === agentId) void loadContacts();
    if (conversation.id === selected)
      setMessages((current) =>
        current.some((m) => m.id === message.id) ? current : [...current, message],
      );
  };
  useRealtimeEvent<MessageEvent>("new_message", onMessage);
  useRealtimeEvent<MessageEvent>("message_sent", onMessage);

  async function send(content: string) {
    if (!selected) return false;
    try {
      const message = await api.post<Message>("/conversations/messages", {
        conversation_id: selected,
        content,
      });
      setMessages((current) =>
        current.some((m) => m.id === message.id) ? current : [...current, message],
      );
      return true;
    } catch (error) {
      toast.error("Error al enviar el mensaje", { description: errorMessage(error) });
      return false;
    }
  }

  if (contacts === null) return <Spinner />;

  return (
    <>
      <PageHeader title={agent ? `Chats de ${agent.name}` : "Chats del agente"} />
      {contacts.length === 0 ? (
        <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="text-sm text-slate-600">Este agente aún no tiene conversaciones.</p>
          <Link
            to="/agents"
            className="mt-4 inline-block rounded-lg bg-emerald-600 px-4 py-2 text-sm font-medium text-white"
          >
            Probar agente
          </Link>
        </section>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
          <ul
            className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
            aria-label="Contactos"
          >
            {contacts.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  onClick={() => setSelected(c.id)}
                  aria-current={selected === c.id ? "true" : undefined}
                  className={`w-full p-3 text-left ${selected === c.id ? "bg-emerald-50" : "hover:bg-slate-50"}`}
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="truncate font-medium">{contactLabel(c)}</span>
                    {c.unread_count > 0 && (
                      <span className="rounded-full bg-emerald-600 px-2 text-xs text-white">
                        {c.unread_count}
                      </span>
                    )}
                  </span>
                  <span className="block truncate text-sm text-slate-500">
                    {c.last_message ?? ""}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <section className="flex min-h-[28rem] flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-100">
            {selected ? (
              <>
                <ol className="flex-1 space-y-2 overflow-y-auto p-4" aria-label="Mensajes">
                  {messages.map((m) => (
                    <MessageBubble key={m.id} message={m} />
                  ))}
                </ol>
                <Composer onSend={send} />
              </>
            ) : (
              <p className="m-auto text-sm text-slate-500">Elige una conversación.</p>
            )}
          </section>
        </div>
      )}
    </>
  );
}
