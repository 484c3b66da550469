import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigation, useRouteError } from "react-router";
import type { Conversation } from "../../contracts/conversations";
import { AgentSandbox } from "~/components/agents/agent-sandbox";
import { ChatPane } from "~/components/agents/chat-pane";
import { ContactList } from "~/components/agents/contact-list";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { ApiError, client, data } from "~/lib/api";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveVersion } from "~/lib/use-live";
import type { Route } from "./+types/agent-chats";
import type { AgentTest } from "~/components/agents/actions";
import type { ConversationChange } from "~/components/conversations/actions";
import { agentTestAction } from "./agents-action";
import {
  conversationAction,
  notAfterConversationChange,
  submittedChange,
} from "./conversation-action";

export const meta = () => [{ title: "Chats del agente — Atiende" }];

/**
 * `list` with `conversation` where it now belongs: at the top when it is still this agent's
 * (the list is newest first), gone when it was handed elsewhere.
 */
function placeContact(list: Conversation[], conversation: Conversation, agentId: string) {
  const others = list.filter((c) => c.id !== conversation.id);
  if (conversation.agent_id !== agentId) return others;
  return [conversation, ...others].sort((a, b) =>
    b.last_message_at.localeCompare(a.last_message_at),
  );
}

/** The agent and its conversations, side by side. */
export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const asked = live.mark();
  const id = params.agentId;
  const agent = client.agents[":id"];
  const [found, contacts] = await Promise.all([
    data(agent.$get({ param: { id } })),
    data(agent.conversations.$get({ param: { id } })),
  ]);
  return { agent: found, contacts, asked };
}

/** What the open chat sends and changes (conversation-action.ts), and "Probar agente". */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const change = await submittedChange<ConversationChange | AgentTest>(request);
  return change.intent === "test" ? agentTestAction(change) : conversationAction(change);
}

export const shouldRevalidate = notAfterConversationChange;

export function ErrorBoundary() {
  const error = useRouteError();
  if (error instanceof ApiError && error.status === 404) return <AgentMissing />;
  return (
    <>
      <Link to="/agents" className="text-sm font-medium text-emerald-700 hover:underline">
        ← Agentes
      </Link>
      <RouteError
        title="Chats del agente"
        description="Las conversaciones de WhatsApp que atiende este agente."
        failure="Error al cargar las conversaciones"
      />
    </>
  );
}

/** One agent's conversations as contacts, and the selected one's messages. */
export default function AgentChats({ loaderData: loaded }: Route.ComponentProps) {
  // Another agent is another screen: its own selection and list.
  return <AgentChatsScreen key={loaded.agent.id} loaded={loaded} />;
}

function AgentChatsScreen({ loaded }: { loaded: Awaited<ReturnType<typeof clientLoader>> }) {
  const { agent } = loaded;
  const agentId = agent.id;
  const navigation = useNavigation();
  const leaving = navigation.state === "loading";
  const revalidate = useCoalescedRevalidate();
  // The list on screen: the loader's with the live store's newer copies laid over it (realtime
  // events, mark-read), read again at each copy recorded: a conversation of this agent moves to
  // the top; one handed elsewhere leaves.
  const version = useLiveVersion();
  const contacts = useMemo(() => {
    let next = loaded.contacts;
    for (const { conversation } of live.conversationsSince(loaded.asked))
      next = placeContact(next, conversation, agentId);
    return next;
    // `version` is what changes when the store records a copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, agentId, version]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [trying, setTrying] = useState(false);
  const pane = useRef<HTMLElement>(null);

  // On small screens the pane sits under the list: bring it into view when a contact is chosen.
  useEffect(() => {
    if (!selectedId || !window.matchMedia("(max-width: 1023px)").matches) return;
    void pane.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [selectedId]);

  // A socket (re)opened: events may have been missed, the list again (the open chat catches up
  // on its own).
  useRealtimeConnected(revalidate);

  const markedRead = (conversationId: string) => {
    const read = contacts.find((c) => c.id === conversationId);
    if (!read) return;
    live.conversation({ ...read, unread_count: 0 });
  };

  const selected = contacts.find((c) => c.id === selectedId) ?? null;

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Link to="/agents" className="text-sm font-medium text-emerald-700 hover:underline">
            ← Agentes
          </Link>
          <PageHeader
            title={agent.name}
            description="Las conversaciones de WhatsApp que atiende este agente."
          />
        </div>
        {contacts.length > 0 && (
          <Button variant="secondary" onClick={() => setTrying(true)}>
            Probar agente
          </Button>
        )}
      </div>

      {contacts.length === 0 ? (
        <NoConversations onTry={() => setTrying(true)} />
      ) : (
        <div
          className={`grid gap-4 lg:grid-cols-[20rem_1fr] lg:items-start ${leaving ? "opacity-60" : ""}`}
          aria-busy={leaving || undefined}
        >
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
