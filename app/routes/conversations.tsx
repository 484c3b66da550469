import { useEffect, useRef, useState } from "react";
import { Outlet, useLocation, useNavigate, useNavigation, useParams } from "react-router";
import { CONVERSATION_PAGE_SIZE } from "../../contracts/conversations";
import { ConversationRow } from "~/components/inbox/conversation-row";
import { EmptyInbox } from "~/components/inbox/empty-inbox";
import { contactLabel } from "~/components/conversations/selectors";
import { InboxFilters, SEARCH_FIELD_ID } from "~/components/inbox/inbox-filters";
import { NoConversationOpen } from "~/components/inbox/no-conversation-open";
import { markInboxRead, useInboxList } from "~/components/inbox/use-inbox-list";
import {
  announce,
  ShortcutAnnouncer,
  ShortcutsHelp,
  useShortcuts,
} from "~/components/inbox/shortcuts";
import { useListReturn } from "~/components/inbox/use-list-return";
import { RouteError } from "~/components/route-error";
import { readTeam, TeamProvider } from "~/components/team/team";
import { Pager } from "~/components/ui/pager";
import { useMediaQuery, WIDE_SCREEN } from "~/components/ui/use-media-query";
import { ApiError, client, data, tokenStore } from "~/lib/api";
import {
  filtersFromUrl,
  filtersToUrl,
  hasFilters,
  listQuery,
  type InboxFilters as Filters,
} from "~/lib/inbox";
import { useUrlState } from "~/lib/use-url-state";
import type { Route } from "./+types/conversations";
import { conversationClientAction, notAfterConversationChange } from "./conversation-action";

export const meta = () => [{ title: "Conversaciones — Atiende" }];

const EMPTY_PLACEHOLDER_MS = 2000;

type InboxData = Awaited<ReturnType<typeof readInbox>>;

async function readInbox(filters: Filters) {
  const asked = markInboxRead();
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
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
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

/** A row's options (status, person, stage, agent), as the open conversation makes them. */
export const clientAction = conversationClientAction;

export const shouldRevalidate = notAfterConversationChange;

export function ErrorBoundary() {
  return <RouteError title="Conversaciones" failure="No se pudieron cargar las conversaciones" />;
}

export default function Conversations({ loaderData: loaded }: Route.ComponentProps) {
  const { agents, team } = loaded;
  const { list, replace } = useInboxList(loaded);
  // The controls show what was asked for, even while its list loads; the list on screen is
  // patched against the filters it was loaded with.
  const [params, setParams] = useUrlState();
  const filters = filtersFromUrl(params);
  const show = (changes: Partial<Filters>, replace = false) =>
    setParams(filtersToUrl({ ...filters, page: 1, ...changes }), { replace });

  // With no conversation at all for 2 s, explain where they come from.
  const [placeholder, setPlaceholder] = useState(false);
  const noConversationsAtAll = list !== null && list.total === 0 && !hasFilters(loaded.filters);
  useEffect(() => {
    if (!noConversationsAtAll) return setPlaceholder(false);
    const timer = setTimeout(() => setPlaceholder(true), EMPTY_PLACEHOLDER_MS);
    return () => clearTimeout(timer);
  }, [noConversationsAtAll]);

  const navigation = useNavigation();
  const location = useLocation();
  // A new list is on its way (not a conversation being opened beside it).
  const loading = navigation.state === "loading" && navigation.location.search !== location.search;
  // Another conversation is on its way: the one shown stays, dimmed, until it arrives.
  const opening =
    navigation.state === "loading" &&
    navigation.location.pathname.startsWith("/conversations/") &&
    navigation.location.pathname !== location.pathname;
  // Wide screens show the list beside the conversation (or beside "Elige una conversación");
  // narrower ones show one or the other.
  const openId = useParams().conversationId;
  const open = openId !== undefined;
  const beside = useMediaQuery(WIDE_SCREEN);
  const { opened } = useListReturn(open, beside);
  const page = filters.page;
  const pages = Math.max(1, Math.ceil((list?.total ?? 0) / CONVERSATION_PAGE_SIZE));
  const empty = placeholder || list === null;

  // The keyboard (decision 0073): j and k go down and up the list, "/" to the search, "?" lists
  // every shortcut; the open conversation adds its own (r, a, e).
  const navigate = useNavigate();
  const listSearch = filtersToUrl(filters).toString();
  const [helpOpen, setHelpOpen] = useState(false);
  const searchAsked = useRef(false);
  const focusSearch = () => {
    const field = document.getElementById(SEARCH_FIELD_ID);
    if (field && field.getClientRects().length > 0) {
      field.focus();
      announce("Buscar conversaciones");
    } else {
      // A phone shows the conversation instead of the list: back to the list first.
      searchAsked.current = true;
      navigate({ pathname: "/conversations", search: listSearch });
    }
  };
  useEffect(() => {
    if (open || !searchAsked.current) return;
    searchAsked.current = false;
    document.getElementById(SEARCH_FIELD_ID)?.focus();
    announce("Buscar conversaciones");
  }, [open]);
  const step = (by: 1 | -1) => {
    const shownList = list?.conversations ?? [];
    const at = shownList.findIndex((c) => c.id === openId);
    const next = shownList[at === -1 ? (by === 1 ? 0 : shownList.length - 1) : at + by];
    if (!next) {
      announce(
        shownList.length === 0
          ? "No hay conversaciones en la lista"
          : by === 1
            ? "No hay más conversaciones en esta página"
            : "Es la primera conversación de la página",
      );
      return;
    }
    if (!open) opened();
    navigate({ pathname: `/conversations/${next.id}`, search: listSearch });
    announce(
      `${by === 1 ? "Conversación siguiente" : "Conversación anterior"}: ${contactLabel(next)}`,
    );
  };
  useShortcuts({
    j: () => step(1),
    k: () => step(-1),
    "/": focusSearch,
    "?": () => setHelpOpen(true),
  });

  const inbox = (
    <div className={`${open ? "hidden xl:flex" : "flex"} min-h-0 flex-col`}>
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h1 className="text-xl font-bold text-slate-900">Conversaciones</h1>
        {list !== null && !empty && (
          <p className="text-sm text-slate-600">
            {list.total === 1 ? "1 conversación" : `${list.total} conversaciones`}
          </p>
        )}
      </div>
      <InboxFilters filters={filters} agents={agents} onChange={show} />
      {empty ? (
        <EmptyInbox onRetry={() => setPlaceholder(false)} />
      ) : (
        <>
          <ul
            className={`min-h-0 divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white transition-opacity xl:flex-1 xl:overflow-y-auto ${loading ? "opacity-60" : ""}`}
            aria-label="Conversaciones"
            aria-busy={loading}
          >
            {list.conversations.length === 0 && (
              <li className="p-6 text-center text-sm text-slate-600">
                Ninguna conversación coincide con los filtros.
              </li>
            )}
            {list.conversations.map((conversation) => (
              <ConversationRow
                key={conversation.id}
                conversation={conversation}
                agents={agents}
                listSearch={listSearch}
                current={conversation.id === openId}
                onOpen={opened}
                onChange={replace}
              />
            ))}
          </ul>
          <Pager page={page} pages={pages} onPage={(next) => show({ page: next })} />
        </>
      )}
    </div>
  );

  return (
    <TeamProvider value={team}>
      <div
        className={
          empty && !open
            ? undefined
            : "xl:grid xl:h-[calc(100dvh-4rem)] xl:grid-cols-[20rem_minmax(0,1fr)] xl:gap-4 2xl:grid-cols-[24rem_minmax(0,1fr)]"
        }
      >
        {inbox}
        {open ? (
          <div aria-busy={opening} className={`min-w-0 ${opening ? "opacity-60" : ""}`}>
            <Outlet />
          </div>
        ) : (
          !empty && (
            <div className="hidden min-w-0 xl:block">
              <NoConversationOpen />
            </div>
          )
        )}
      </div>
      <ShortcutAnnouncer />
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </TeamProvider>
  );
}
