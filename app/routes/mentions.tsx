import { useEffect, useMemo, useState } from "react";
import { Link, redirect } from "react-router";
import type { Mention } from "../../contracts/team-inbox";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { useOpenMention, type MentionOpened } from "~/components/team/actions";
import { readTeam, memberName } from "~/components/team/team";
import { Button } from "~/components/ui/button";
import { client, data } from "~/lib/api";
import { formatRelative } from "~/lib/format";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveVersion } from "~/lib/use-live";
import type { Route } from "./+types/mentions";

export const meta = () => [{ title: "Menciones — Atiende" }];

/**
 * The member's unread mentions, newest first, who wrote each note, and the live store's mark:
 * mentions that come after it are laid over the list (decision 0145). Read again when the
 * realtime socket (re)opens: a mention sent while it was down never reaches the store (0151).
 */
export async function clientLoader() {
  const asked = live.mark();
  const [answer, team] = await Promise.all([
    data(client.mentions.$get({ query: { unread: "true" } })),
    readTeam(),
  ]);
  return { mentions: answer.mentions, team, asked };
}

/**
 * Opening a mention marks it read (`{id, conversation_id}`), then goes to its conversation: from
 * this list, its toast or its desktop notice (`useOpenMention`, decision 0151).
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const mention = (await request.json()) as MentionOpened;
  // The conversation opens even when the mark is refused: the mention then stays listed.
  const read = await data(client.mentions[":id"].read.$patch({ param: { id: mention.id } })).catch(
    () => null,
  );
  // The read copy goes to the live store, as a change's answer does: no list shows it unread.
  if (read) live.mention(read);
  return redirect(`/conversations/${mention.conversation_id}`);
}

/** The unread ones, newest first; a mention is listed once, its latest copy. */
function newestFirst(loaded: Mention[], arrived: Map<string, Mention>) {
  const byId = new Map(loaded.map((mention) => [mention.id, mention]));
  for (const [id, mention] of arrived) byId.set(id, mention);
  return [...byId.values()]
    .filter((mention) => mention.read_at === null)
    .sort((a, b) =>
      a.created_at === b.created_at
        ? b.id.localeCompare(a.id)
        : b.created_at.localeCompare(a.created_at),
    );
}

export function ErrorBoundary() {
  return <RouteError title="Menciones" failure="No se pudieron cargar las menciones" />;
}

/** Desktop notices need the person's permission, asked only from their click. */
function DesktopNotices() {
  const [permission, setPermission] = useState<NotificationPermission | "unsupported">(
    "unsupported",
  );
  useEffect(() => {
    if ("Notification" in window) setPermission(Notification.permission);
  }, []);
  if (permission !== "default") return null;
  return (
    <Button
      variant="secondary"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      Activar avisos de escritorio
    </Button>
  );
}

export default function Mentions({ loaderData: loaded }: Route.ComponentProps) {
  const { team } = loaded;
  // A mention that comes while the list is open joins it from the live store, with no new read.
  const version = useLiveVersion();
  const mentions = useMemo(
    () => newestFirst(loaded.mentions, live.mentionsSince(loaded.asked)),
    // `version` is what changes when the store records a copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [loaded, version],
  );
  // A mention sent while the socket was down is not in the store: read the list again.
  const readAgain = useCoalescedRevalidate();
  useRealtimeConnected(readAgain);
  const open = useOpenMention();

  return (
    <>
      <PageHeader
        title="Menciones"
        description="Notas internas en las que un compañero te ha mencionado."
      />
      <div className="mb-4">
        <DesktopNotices />
      </div>
      {mentions.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">
          No tienes menciones sin leer. Cuando alguien escriba tu nombre con @ en una nota,
          aparecerá aquí.
        </p>
      ) : (
        <ul
          aria-label="Menciones sin leer"
          className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white"
        >
          {mentions.map((mention) => (
            <li key={mention.id}>
              <button
                type="button"
                onClick={() => open(mention)}
                className="block w-full p-4 text-left hover:bg-amber-50"
              >
                <span className="block text-sm font-medium text-slate-900">
                  {memberName(team, mention.author_id) ?? "Un compañero"} te mencionó
                </span>
                <span className="mt-1 block truncate text-sm text-slate-700">
                  {mention.excerpt}
                </span>
                <span className="mt-1 block text-xs text-slate-500">
                  {formatRelative(mention.created_at)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-4 text-sm">
        <Link to="/conversations?assignee_id=me" className="text-emerald-800 hover:underline">
          Ver mis conversaciones
        </Link>
      </p>
    </>
  );
}
