import { useEffect, useRef, useState } from "react";
import {
  Link,
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  useParams,
  type ClientLoaderFunctionArgs,
} from "react-router";
import {
  CONVERSATION_PAGE_SIZE,
  CONVERSATION_STATUSES,
  PRIORITIES,
  type Conversation,
  type ConversationEvent,
  type ConversationList,
  type MessageEvent,
} from "../../worker/conversations/contract";
import { CONVERSATION_STAGES, STAGE_LABELS } from "../../worker/sales/contract";
import { changeAgent, changeStatus, updateConversation } from "~/components/conversations/actions";
import { FilterSelect } from "~/components/conversations/filter-select";
import { PRIORITY_LABELS, STATUS_LABELS } from "~/components/conversations/labels";
import { AgentSelect, contactLabel, StatusSelect } from "~/components/conversations/selectors";
import { StageBadge, StageSelect } from "~/components/sales/stage";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, client, data, tokenStore } from "~/lib/api";
import { formatRelative } from "~/lib/format";
import {
  filtersFromUrl,
  filtersToUrl,
  hasFilters,
  listQuery,
  oneOf,
  patchList,
  type InboxFilters,
} from "~/lib/inbox";
import { liveCopies, recordEvents } from "~/lib/live-copies";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useUrlState } from "~/lib/use-url-state";
import { useRealtimeEvent } from "~/lib/use-realtime-event";
import { RouteError } from "~/components/route-error";
import {
  AssigneeBadge,
  AssigneeSelect,
  LabelChips,
  readTeam,
  TeamProvider,
} from "~/components/team/team";
import { assignPerson } from "~/components/team/team-actions";
import { TeamFilters } from "~/components/team/team-filters";
import { useAuth } from "~/lib/auth";

export const meta = () => [{ title: "Conversaciones — Atiende" }];

const SEARCH_DEBOUNCE_MS = 300;
const EMPTY_PLACEHOLDER_MS = 2000;

/**
 * Conversations as realtime events (and this screen's own edits) brought them: a page that was
 * read before them gets them laid over it, rather than showing what they replaced.
 */
const liveRows = liveCopies<{ id: string; conversation: Conversation; newMessage: boolean }>();
/** The mark of the list read last: a row that got a message since then moves to the top. */
let lastAsked = 0;

function recordRow(conversation: Conversation, newMessage: boolean) {
  const earlier = liveRows.get(conversation.id, lastAsked);
  liveRows.record({
    id: conversation.id,
    conversation,
    newMessage: newMessage || Boolean(earlier?.newMessage),
  });
}
recordEvents<MessageEvent>(["new_message", "message_sent"], ({ conversation }) =>
  recordRow(conversation, true),
);
recordEvents<ConversationEvent>(["conversation_update"], ({ conversation }) =>
  recordRow(conversation, false),
);

type InboxData = Awaited<ReturnType<typeof readInbox>>;

async function readInbox(filters: InboxFilters) {
  const asked = (lastAsked = liveRows.mark());
  const [list, agents, team] = await Promise.all([
    data(client.conversations.$get({ query: listQuery(filters) })).catch((error: unknown) => {
      // No inbox yet for this account: the page explains where conversations come from.
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }),
    data(client.agents.$get()).catch(() => []),
    readTeam(),
  ]);
  return { filters, list, agents, team, asked };
}

/** What the inbox last showed, for which URL and which session (never another account's). */
let shown: { key: string; data: InboxData } | null = null;

/**
 * The page of conversations the URL asks for, and the agents to filter and assign by. A
 * reload of the same list that fails (the network, a time-out: it runs in the background after
 * realtime events) keeps the list on screen, and the conversation open beside it, instead of
 * replacing both with an error; the next event or reconnection reloads again.
 */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const filters = filtersFromUrl(new URL(request.url).searchParams);
  const key = `${tokenStore.get()} ${filtersToUrl(filters)}`;
  try {
    const inbox = await readInbox(filters);
    shown = { key, data: inbox };
    return inbox;
  } catch (error) {
    if (shown?.key === key && error instanceof ApiError && error.status === 0) return shown.data;
    throw error;
  }
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <Spinner />;
}

export function ErrorBoundary() {
  return <RouteError title="Conversaciones" failure="No se pudieron cargar las conversaciones" />;
}

export default function Conversations() {
  const loaded = useLoaderData<typeof clientLoader>();
  const { agents, team } = loaded;
  const me = useAuth().user?.id;
  // The controls show what was asked for, even while its list loads; the list on screen is
  // patched against the filters it was loaded with.
  const [params, setParams] = useUrlState();
  const filters = filtersFromUrl(params);
  const navigation = useNavigation();
  const revalidate = useCoalescedRevalidate();
  // The page on screen: the loader's, patched by realtime events and the row selects.
  const [list, setList] = useState(loaded.list);
  // Read by event handlers, which may run several times before the next render.
  const listRef = useRef(list);
  const showList = (next: ConversationList | null) => {
    listRef.current = next;
    setList(next);
  };
  useEffect(() => {
    let next = loaded.list;
    for (const { conversation, newMessage } of liveRows.since(loaded.asked).values()) {
      if (next) next = patchList(next, loaded.filters, conversation, { newMessage, me }).list;
    }
    listRef.current = next;
    setList(next);
  }, [loaded, me]);

  const show = (changes: Partial<InboxFilters>, replace = false) =>
    setParams(filtersToUrl({ ...filters, page: 1, ...changes }), { replace });

  // The search box writes the URL after a pause in typing; back and forward write the box.
  const [search, setSearch] = useState(filters.search);
  const written = useRef(filters.search);
  const showLatest = useRef(show);
  showLatest.current = show;
  useEffect(() => {
    if (filters.search !== written.current) setSearch((written.current = filters.search));
  }, [filters.search]);
  useEffect(() => {
    const value = search.trim();
    if (value === written.current) return;
    const timer = setTimeout(() => {
      written.current = value;
      showLatest.current({ search: value }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  // With no conversation at all for 2 s, explain where they come from.
  const [placeholder, setPlaceholder] = useState(false);
  const noConversationsAtAll = list !== null && list.total === 0 && !hasFilters(loaded.filters);
  useEffect(() => {
    if (!noConversationsAtAll) return setPlaceholder(false);
    const timer = setTimeout(() => setPlaceholder(true), EMPTY_PLACEHOLDER_MS);
    return () => clearTimeout(timer);
  }, [noConversationsAtAll]);

  /** The page on screen with `conversation` (already recorded for later reloads) placed in it. */
  const patch = (conversation: Conversation, newMessage: boolean) => {
    const current = listRef.current;
    if (!current) return revalidate();
    const patched = patchList(current, loaded.filters, conversation, { newMessage, me });
    showList(patched.list);
    if (patched.stale) revalidate();
  };
  useRealtimeConnected(revalidate);
  useRealtimeEvent<MessageEvent>("new_message", ({ conversation }) => patch(conversation, true));
  useRealtimeEvent<MessageEvent>("message_sent", ({ conversation }) => patch(conversation, true));
  useRealtimeEvent<ConversationEvent>("conversation_update", ({ conversation }) =>
    patch(conversation, false),
  );
  const replace = (updated: Conversation | null) => {
    if (!updated) return;
    recordRow(updated, false);
    patch(updated, false);
  };

  const page = filters.page;
  const pages = Math.max(1, Math.ceil((list?.total ?? 0) / CONVERSATION_PAGE_SIZE));
  // A new list is on its way (not a conversation being opened beside it).
  const location = useLocation();
  const loading = navigation.state === "loading" && navigation.location.search !== location.search;
  // Another conversation is on its way: the one shown stays, dimmed, until it arrives.
  const opening =
    navigation.state === "loading" &&
    navigation.location.pathname.startsWith("/conversations/") &&
    navigation.location.pathname !== location.pathname;
  // With a conversation open, wide screens show the list beside it and phones show only it.
  const openId = useParams().conversationId;
  const open = openId !== undefined;
  const listSearch = filtersToUrl(filters).toString();

  return (
    <TeamProvider value={team}>
      <div
        className={
          open
            ? "lg:grid lg:grid-cols-[minmax(18rem,24rem)_minmax(0,1fr)] lg:items-start lg:gap-4"
            : undefined
        }
      >
        <div
          className={
            open
              ? "hidden lg:sticky lg:top-8 lg:block lg:max-h-[calc(100vh-4rem)] lg:overflow-y-auto"
              : undefined
          }
        >
          <PageHeader
            title="Conversaciones"
            description="Las conversaciones de WhatsApp de tu organización, en tiempo real."
          />
          <form
            role="search"
            className={`mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 ${open ? "grid-cols-2" : "sm:grid-cols-2 lg:grid-cols-6"}`}
            onSubmit={(e) => e.preventDefault()}
          >
            <label className={`text-sm ${open ? "col-span-2" : "lg:col-span-2"}`}>
              <span className="mb-1 block font-medium text-slate-700">Buscar</span>
              <input
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                placeholder="Nombre, teléfono o texto del mensaje"
                className="w-full rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <FilterSelect
              label="Estado"
              ariaLabel="Filtrar por estado"
              anyLabel="Todos"
              value={filters.status}
              options={CONVERSATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
              onChange={(value) => show({ status: oneOf(value, CONVERSATION_STATUSES) })}
            />
            <FilterSelect
              label="Prioridad"
              ariaLabel="Filtrar por prioridad"
              anyLabel="Todas"
              value={filters.priority}
              options={PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }))}
              onChange={(value) => show({ priority: oneOf(value, PRIORITIES) })}
            />
            <FilterSelect
              label="Etapa"
              ariaLabel="Filtrar por etapa"
              anyLabel="Todas"
              value={filters.stage}
              options={CONVERSATION_STAGES.map((s) => ({ value: s, label: STAGE_LABELS[s] }))}
              onChange={(value) => show({ stage: oneOf(value, CONVERSATION_STAGES) })}
            />
            <FilterSelect
              label="Agente"
              ariaLabel="Filtrar por agente"
              anyLabel="Todos"
              value={filters.agent}
              disabled={filters.unassigned}
              options={[
                { value: "unassigned", label: "Sin asignar" },
                ...agents.map((a) => ({ value: a.id, label: a.name })),
              ]}
              onChange={(agent) => show({ agent })}
            />
            <TeamFilters
              assignee={filters.assignee}
              label={filters.label}
              onChange={(changes) => show(changes)}
            />
            <label
              className={`flex items-center gap-2 text-sm text-slate-700 ${open ? "col-span-2" : "sm:col-span-2 lg:col-span-4"}`}
            >
              <input
                type="checkbox"
                checked={filters.unassigned}
                onChange={(e) => show({ unassigned: e.target.checked })}
              />
              Solo sin asignar
            </label>
          </form>

          {placeholder || list === null ? (
            <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
              <h2 className="font-semibold text-slate-900">Aún no hay conversaciones</h2>
              <p className="mx-auto mt-2 max-w-lg text-sm text-slate-600">
                Esta función está en desarrollo para tu cuenta: las conversaciones aparecerán aquí
                en cuanto conectes tu número de WhatsApp Business en Configuración y tus clientes
                escriban.
              </p>
              <Button
                className="mt-4"
                variant="secondary"
                onClick={() => {
                  setPlaceholder(false);
                  revalidate();
                }}
              >
                Reintentar
              </Button>
            </section>
          ) : (
            <>
              <ul
                className={`divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white transition-opacity ${loading ? "opacity-60" : ""}`}
                aria-label="Conversaciones"
                aria-busy={loading}
              >
                {list.conversations.length === 0 && (
                  <li className="p-6 text-center text-sm text-slate-600">
                    Ninguna conversación coincide con los filtros.
                  </li>
                )}
                {list.conversations.map((conversation) => (
                  <li
                    key={conversation.id}
                    className={`flex flex-col gap-3 p-4 sm:flex-row sm:items-center ${conversation.id === openId ? "bg-emerald-50" : ""}`}
                  >
                    <Link
                      to={{ pathname: `/conversations/${conversation.id}`, search: listSearch }}
                      aria-current={conversation.id === openId ? "page" : undefined}
                      className="min-w-0 flex-1"
                    >
                      <span className="flex items-center gap-2">
                        <AssigneeBadge assigneeId={conversation.assignee_id} />
                        <span className="truncate font-medium text-slate-900">
                          {contactLabel(conversation)}
                        </span>
                        {(conversation.priority === "urgent" ||
                          conversation.priority === "high") && (
                          <span
                            className="text-red-600"
                            title={`Prioridad ${PRIORITY_LABELS[conversation.priority]}`}
                          >
                            <span aria-hidden="true">⚠</span>
                            <span className="sr-only">
                              Prioridad {PRIORITY_LABELS[conversation.priority]}
                            </span>
                          </span>
                        )}
                        <StageBadge stage={conversation.stage} />
                        <LabelChips labels={conversation.labels} />
                        {(conversation.fbclid || conversation.ctwa_clid) && (
                          <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-800">
                            Anuncio
                          </span>
                        )}
                        {conversation.unread_count > 0 && (
                          <span
                            className="rounded-full bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white"
                            aria-label={`${conversation.unread_count} sin leer`}
                          >
                            {conversation.unread_count}
                          </span>
                        )}
                      </span>
                      <span className="mt-1 block truncate text-sm text-slate-600">
                        {conversation.last_message ?? "Sin mensajes"}
                      </span>
                      <span className="mt-1 block text-xs text-slate-500">
                        {formatRelative(conversation.last_message_at)}
                      </span>
                    </Link>
                    {/* Beside an open conversation, its header holds these. */}
                    {!open && (
                      <div className="flex flex-wrap gap-2">
                        <StatusSelect
                          label={`Estado de ${contactLabel(conversation)}`}
                          value={conversation.status}
                          onChange={async (status) =>
                            replace(await changeStatus(conversation.id, status))
                          }
                        />
                        <StageSelect
                          label={`Etapa de ${contactLabel(conversation)}`}
                          value={conversation.stage}
                          onChange={async (stage) =>
                            replace(await updateConversation(conversation.id, { stage }))
                          }
                        />
                        <AgentSelect
                          label={`Agente de ${contactLabel(conversation)}`}
                          value={conversation.agent_id}
                          agents={agents}
                          onChange={async (agentId) =>
                            replace(await changeAgent(conversation.id, agentId))
                          }
                        />
                        <AssigneeSelect
                          label={`Persona asignada a ${contactLabel(conversation)}`}
                          value={conversation.assignee_id}
                          onChange={async (userId) =>
                            replace(await assignPerson(conversation.id, userId))
                          }
                        />
                      </div>
                    )}
                  </li>
                ))}
              </ul>
              <nav aria-label="Paginación" className="mt-4 flex items-center justify-between">
                <Button
                  variant="secondary"
                  disabled={page <= 1}
                  onClick={() => show({ page: page - 1 })}
                >
                  Anterior
                </Button>
                <span className="text-sm text-slate-600">
                  Página {page} de {pages}
                </span>
                <Button
                  variant="secondary"
                  disabled={page >= pages}
                  onClick={() => show({ page: page + 1 })}
                >
                  Siguiente
                </Button>
              </nav>
            </>
          )}
        </div>
        <div aria-busy={opening} className={`min-w-0 ${opening ? "opacity-60" : ""}`}>
          <Outlet />
        </div>
      </div>
    </TeamProvider>
  );
}
