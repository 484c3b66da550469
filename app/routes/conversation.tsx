import { lazy, Suspense, useRef, useState } from "react";
import {
  data as routeData,
  isRouteErrorResponse,
  Link,
  useLocation,
  useRouteError,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Conversation, ConversationDetail, Message } from "../../contracts/conversations";
import type { Suggestion } from "../../contracts/sales";
import { useConversationWrites, useReplyActions } from "~/components/conversations/actions";
import { useOrganizationTime } from "~/components/broadcasts/organization-time";
import { ConversationDetails } from "~/components/conversations/conversation-details";
import { CustomerPayments } from "~/components/conversations/customer-payments";
import { BESIDE, useDetailsFitBeside } from "~/components/conversations/details-beside";
import {
  ConversationHeader,
  DETAILS_PANEL_ID,
} from "~/components/conversations/conversation-header";
import { threadControl, wroteInHistory } from "~/components/conversations/coexistence";
import { marketingHeld } from "~/components/conversations/marketing-retry";
import { ReplyArea } from "~/components/conversations/reply-area";
import { ThreadControlBanner } from "~/components/conversations/thread-control";
import { ThreadView } from "~/components/conversations/thread-view";
import { useAiDraft } from "~/components/conversations/use-ai-draft";
import { loadThread, useMessageThread } from "~/components/conversations/use-message-thread";
import { useDetails } from "~/components/conversations/use-details";
import { useToastsBelow } from "~/components/conversations/use-toasts-below";
import { useWindowClock } from "~/components/conversations/window-banner";
import { announce, useShortcuts } from "~/components/inbox/shortcuts";
import { readConversions } from "~/components/sales/read-conversions";
import { Sheet } from "~/components/ui/sheet";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { live, olderConversation } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useLiveConversations } from "~/lib/use-live-conversations";
import { useLiveEvent } from "~/lib/use-live";
import type { clientLoader as inboxLoader } from "./conversations";
import type { Route } from "./+types/conversation";
import { conversationClientAction } from "./conversation-action";

export const meta = () => [{ title: "Conversación — Atiende" }];

/**
 * The sales panel is its own chunk, fetched by the loader beside the data: the conversation's
 * first visit downloads less, and the panel is there when the screen is.
 */
const loadSalesPanel = () => import("~/components/sales/sales-panel");
const SalesPanel = lazy(() => loadSalesPanel().then((m) => ({ default: m.SalesPanel })));

const readDetail = (id: string) => data(client.conversations[":id"].$get({ param: { id } }));

/** Its payment links, with the live store's mark when asked; null when they could not load. */
function readPayments(id: string) {
  const asked = live.mark();
  return data(client.conversations[":id"].payments.$get({ param: { id } })).then(
    (payments) => ({ payments, asked }),
    () => null,
  );
}

/**
 * The conversation, its newest messages, its conversions, its payment links and the quick
 * replies, in parallel.
 */
export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const id = params.conversationId ?? "";
  try {
    const [conversation, thread, conversions, payments, quickReplies] = await Promise.all([
      readDetail(id),
      loadThread(id),
      readConversions(id),
      readPayments(id),
      data(client["quick-replies"].$get()).catch(() => []),
      loadSalesPanel(),
    ]);
    return { conversation, thread, conversions, payments, quickReplies };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw routeData("Conversación no encontrada", { status: 404 });
    throw error;
  }
}

/** Every change the screen makes: its messages, details, suggestions, sales (conversation-action.ts). */
export const clientAction = conversationClientAction;

/**
 * Once open, a conversation keeps itself current from realtime events: the inbox's reloads
 * (a filter, a burst of messages) do not read it again; opening another one does.
 */
export const shouldRevalidate = ({
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) =>
  currentParams.conversationId !== nextParams.conversationId && defaultShouldRevalidate;

/** The inbox's list, as the URL filters it: where "back" returns to. */
function useInboxLink() {
  const { search } = useLocation();
  return `/conversations${search}`;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const back = useInboxLink();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center">
      <h1 className="text-xl font-semibold">
        {missing ? "Conversación no encontrada" : "Error al cargar la conversación"}
      </h1>
      {!missing && <p className="mt-2 text-sm text-slate-600">{errorMessage(error)}</p>}
      <Link
        to={back}
        className="mt-4 inline-block rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white"
      >
        Volver a conversaciones
      </Link>
    </section>
  );
}

/** The detail shown with a newer copy of the conversation, and a new suggestion if any. */
function withUpdate(current: ConversationDetail, c: Conversation, suggestion?: Suggestion) {
  const known = !suggestion || current.suggestions.some((s) => s.id === suggestion.id);
  return {
    ...current,
    ...c,
    suggestions: known ? current.suggestions : [suggestion, ...current.suggestions],
  };
}

/** Each conversation gets its own screen state: opening another starts afresh. */
export default function ConversationRoute({ loaderData: loaded }: Route.ComponentProps) {
  return <ConversationScreen key={loaded.conversation.id} loaded={loaded} />;
}

function ConversationScreen({ loaded }: { loaded: Awaited<ReturnType<typeof clientLoader>> }) {
  const conversationId = loaded.conversation.id;
  const agents = useRouteLoaderData<typeof inboxLoader>("routes/conversations")?.agents ?? [];
  const back = useInboxLink();
  const [conversation, setConversation] = useState<ConversationDetail>(loaded.conversation);
  const thread = useMessageThread(conversationId, { loaded: loaded.thread });
  const { upsert } = thread;
  const expiresAt = conversation.window_expires_at;
  const { open: windowOpen, now } = useWindowClock(expiresAt);
  const organizationTime = useOrganizationTime();

  /** A newer copy of the conversation (an event, an edit): the detail's extras stay. */
  const show = (c: Conversation | null, suggestion?: Suggestion) => {
    if (!c) return;
    // An event slower than a later read never puts back what it replaced.
    setConversation((current) =>
      withUpdate(current, olderConversation(c, current) ? current : c, suggestion),
    );
  };

  useLiveConversations((c, { suggestion }) => {
    if (c.id === conversationId) show(c, suggestion);
  });
  // A note written by a colleague (or by this screen: the thread keeps one copy).
  useLiveEvent<{ conversation_id: string; message: Message }>(
    "note_created",
    ({ conversation_id, message }) => {
      if (conversation_id === conversationId) upsert(message);
    },
  );

  const [aiDraft, setAiDraft] = useAiDraft(conversationId, conversation.ai_draft);

  // A socket (re)opened: the thread catches up on its own; the detail (and any suggestion
  // prepared meanwhile) is read again.
  useRealtimeConnected(async () => {
    try {
      const detail = await readDetail(conversationId);
      // An event that came while this read was on its way is newer: the read never puts back
      // what it replaced (a customer's opt-out arriving just after a reconnection).
      setConversation((current) => (olderConversation(detail, current) ? current : detail));
      setAiDraft(detail.ai_draft);
    } catch {
      // The next event or reconnection brings the conversation up to date.
    }
  });

  const actions = useReplyActions(conversationId, upsert);
  const writes = useConversationWrites();
  const requestPhone = () => void actions.requestPhone();

  const details = useDetails(conversationId, loaded.conversions);
  const { wide, conversions } = details;
  // Beside the thread where both fit (the thread keeps 480 px for its composer), else over it.
  const row = useRef<HTMLDivElement>(null);
  const beside = useDetailsFitBeside(row);
  // The panel takes the focus when the person opens it, not when it opens as it was left.
  const [openedByPerson, setOpenedByPerson] = useState(false);
  const toggleDetails = () => {
    setOpenedByPerson(!details.shown);
    details.toggle();
  };

  // Who answers the customer: the app, a person on the phone, or Meta's own AI (section 16).
  const control = threadControl(conversation, thread.messages, now);
  const historyOnly = wroteInHistory(thread.messages);

  const top = useRef<HTMLDivElement>(null);
  useToastsBelow(top, !details.sheet);

  // The open conversation's shortcuts (decision 0073), through the calls its header makes.
  const me = useAuth().user?.id ?? null;
  useShortcuts({
    r: () => {
      const composer = document.getElementById("composer");
      if (composer instanceof HTMLTextAreaElement && !composer.disabled) {
        composer.focus();
        announce("Escribe tu respuesta");
      } else announce("No se puede escribir una respuesta ahora");
    },
    a: async () => {
      if (!me) return;
      if (conversation.assignee_id === me) return announce("Ya llevas esta conversación");
      const updated = await writes.assignPerson(conversationId, me);
      show(updated);
      announce(updated ? "Conversación asignada a ti" : "No se pudo asignar la conversación");
    },
    e: async () => {
      if (conversation.status === "closed") return announce("La conversación ya está cerrada");
      const updated = await writes.changeStatus(conversationId, "closed");
      show(updated);
      announce(updated ? "Conversación cerrada" : "No se pudo cerrar la conversación");
    },
  });

  const detailsFor = (onPhone: boolean) => (
    <ConversationDetails
      conversation={conversation}
      agents={agents}
      onChange={show}
      headerActions={onPhone ? { windowOpen, onRequestPhone: requestPhone } : undefined}
      now={now}
      payments={<CustomerPayments conversationId={conversationId} loaded={loaded.payments} />}
      sales={
        <Suspense fallback={<Spinner label="Cargando ventas..." />}>
          {conversions === null ? (
            <Spinner label="Cargando ventas..." />
          ) : (
            <SalesPanel
              conversation={conversation}
              conversions={conversions}
              onChange={(update) => setConversation((c) => c && update(c))}
            />
          )}
        </Suspense>
      }
    />
  );

  return (
    <section className="flex h-[calc(100dvh-6.25rem)] flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-100 sm:h-[calc(100dvh-7.25rem)] lg:h-[calc(100dvh-4rem)]">
      {/* Toasts sit below this: the header's actions and who-answers' action stay in reach. */}
      <div ref={top} className="shrink-0">
        <ConversationHeader
          conversation={conversation}
          back={back}
          wide={wide}
          windowOpen={windowOpen}
          onRequestPhone={requestPhone}
          onChange={show}
          details={{ shown: details.shown, toggle: toggleDetails }}
        />
        <ThreadControlBanner
          key={control?.kind}
          control={control}
          conversationId={conversationId}
          onChange={show}
          now={now}
        />
      </div>
      {conversation.assignee_id && (
        <p className="border-b border-sky-100 bg-sky-50 px-4 py-1.5 text-xs text-sky-900">
          La IA no responde mientras una persona lleva la conversación.
        </p>
      )}
      {conversation.ai_error && (
        <p role="alert" className="bg-amber-50 px-4 py-2 text-sm text-amber-800">
          La IA no pudo responder: {conversation.ai_error}
        </p>
      )}
      <div ref={row} className="flex min-h-0 flex-1">
        <div
          className={`flex min-w-0 flex-1 flex-col ${details.panel && beside ? BESIDE.thread : ""}`}
        >
          <div className="relative flex min-h-0 flex-1 flex-col">
            <ThreadView
              thread={thread}
              actions={actions}
              windowOpen={windowOpen}
              marketingHeld={marketingHeld(conversation, organizationTime, now)}
            />
            {details.panel && !beside && (
              <Sheet
                open
                over
                id={DETAILS_PANEL_ID}
                title="Detalles"
                takeFocus={openedByPerson}
                onClose={toggleDetails}
              >
                {detailsFor(false)}
              </Sheet>
            )}
          </div>
          <ReplyArea
            key={conversationId}
            actions={actions}
            window={{ expiresAt, open: windowOpen, now, historyOnly }}
            quickReplies={loaded.quickReplies}
            suggestion={{ conversationId, aiDraft, onChange: setAiDraft }}
            notes={{ conversationId, onWritten: upsert }}
          />
        </div>
        {details.panel && beside && (
          <div
            id={DETAILS_PANEL_ID}
            className={`${BESIDE.panel} overflow-y-auto border-l border-slate-200 bg-white`}
          >
            {detailsFor(false)}
          </div>
        )}
      </div>
      <Sheet open={details.sheet} title="Detalles" onClose={details.closeSheet}>
        {detailsFor(true)}
      </Sheet>
    </section>
  );
}
