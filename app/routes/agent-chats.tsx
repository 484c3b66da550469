import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import type { Agent } from "../../worker/agents/contract";
import type {
  Conversation,
  ConversationEvent,
  ConversationList,
  MessageEvent,
} from "../../worker/conversations/contract";
import { AgentSandbox } from "~/components/agents/agent-sandbox";
import { ChatPane } from "~/components/agents/chat-pane";
import { ContactList } from "~/components/agents/contact-list";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, api, errorMessage } from "~/lib/api";
import { useRealtimeConnected } from "~/lib/realtime";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

export const meta = () => [{ title: "Chats del agente — Atiende" }];

type LoadState = "loading" | "ready" | "missing" | "failed";

/** The list call answers an array, or (like /conversations) an object with `conversations`. */
const toList = (data: Conversation[] | ConversationList) =>
  Array.isArray(data) ? data : data.conversations;

const newestFirst = (list: Conversation[]) =>
  [...list].sort((a, b) => b.last_message_at.localeCompare(a.last_message_at));

/** One agent's conversations as contacts, and the selected one's messages. */
export default function AgentChats() {
  const { agentId = "" } = useParams();
  const [agent, setAgent] = useState<Agent | null>(null);
  const [contacts, setContacts] = useState<Conversation[]>([]);
  const [state, setState] = useState<LoadState>("loading");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [trying, setTrying] = useState(false);
  const pane = useRef<HTMLElement>(null);

  const fetchContacts = useCallback(
    async () =>
      newestFirst(
        toList(
          await api.get<Conversation[] | ConversationList>(`/agents/${agentId}/conversations`),
        ),
      ),
    [agentId],
  );

  const load = useCallback(async () => {
    setState("loading");
    try {
      const [found, list] = await Promise.all([
        api.get<Agent>(`/agents/${agentId}`),
        fetchContacts(),
      ]);
      setAgent(found);
      setContacts(list);
      setState("ready");
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return setState("missing");
      toast.error("Error al cargar las conversaciones", { description: errorMessage(error) });
      setState("failed");
    }
  }, [agentId, fetchContacts]);

  useEffect(() => {
    setSelectedId(null);
    void load();
  }, [load]);

  // On small screens the pane sits under the list: bring it into view when a contact is chosen.
  useEffect(() => {
    if (!selectedId || !window.matchMedia("(max-width: 1023px)").matches) return;
    void pane.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [selectedId]);

  // Live updates: a conversation of this agent moves to the top; one handed elsewhere leaves.
  const onConversation = ({ conversation }: { conversation: Conversation }) =>
    setContacts((current) => {
      const others = current.filter((c) => c.id !== conversation.id);
      if (conversation.agent_id !== agentId) return others;
      return newestFirst([conversation, ...others]);
    });
  // A socket (re)opened: the list again, quietly (the open chat catches up on its own).
  useRealtimeConnected(() => {
    if (state === "ready") fetchContacts().then(setContacts, () => undefined);
  });
  useRealtimeEvent<MessageEvent>("new_message", onConversation);
  useRealtimeEvent<MessageEvent>("message_sent", onConversation);
  useRealtimeEvent<ConversationEvent>("conversation_update", onConversation);

  const markedRead = (conversationId: string) =>
    setContacts((current) =>
      current.map((c) => (c.id === conversationId ? { ...c, unread_count: 0 } : c)),
    );

  if (state === "loading") return <Spinner />;
  if (state === "missing") return <AgentMissing />;

  const selected = contacts.find((c) => c.id === selectedId) ?? null;

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Link to="/agents" className="text-sm font-medium text-emerald-700 hover:underline">
            ← Agentes
          </Link>
          <PageHeader
            title={agent?.name ?? "Chats del agente"}
            description="Las conversaciones de WhatsApp que atiende este agente."
          />
        </div>
        {agent && state === "ready" && contacts.length > 0 && (
          <Button variant="secondary" onClick={() => setTrying(true)}>
            Probar agente
          </Button>
        )}
      </div>

      {state === "failed" ? (
        <section className="rounded-xl border border-slate-200 bg-white p-8 text-center">
          <p className="text-sm text-slate-600">No se pudieron cargar las conversaciones.</p>
          <Button variant="secondary" className="mt-4" onClick={() => void load()}>
            Reintentar
          </Button>
        </section>
      ) : contacts.length === 0 ? (
        <NoConversations onTry={() => setTrying(true)} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[20rem_1fr] lg:items-start">
          <ContactList
            conversations={contacts}
            selectedId={selectedId}
            onSelect={(c) => setSelectedId(c.id)}
          />
          {selected ? (
            <ChatPane key={selected.id} ref={pane} conversation={selected} onRead={markedRead} />
          ) : (
            <p className="hidden h-[calc(100vh-12rem)] items-center justify-center rounded-xl border border-slate-200 bg-slate-100 text-sm text-slate-500 lg:flex">
              Elige una conversación.
            </p>
          )}
        </div>
      )}

      <AgentSandbox agent={trying ? agent : null} onClose={() => setTrying(false)} />
    </>
  );
}

function NoConversations({ onTry }: { onTry: () => void }) {
  return (
    <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
      <h2 className="font-semibold text-slate-900">Este agente aún no tiene conversaciones</h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
        Aparecerán aquí cuando atienda a clientes por WhatsApp. Mientras tanto, puedes probarlo
        escribiendo como lo haría un cliente.
      </p>
      <Button className="mt-4" onClick={onTry}>
        Probar agente
      </Button>
    </section>
  );
}

function AgentMissing() {
  return (
    <section className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Agente no encontrado</h1>
      <p className="mt-2 text-sm text-slate-600">Puede que se haya eliminado.</p>
      <Link
        to="/agents"
        className="mt-4 inline-block rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800"
      >
        Volver a agentes
      </Link>
    </section>
  );
}
