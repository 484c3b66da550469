import { isRouteErrorResponse, Link, redirect, useRouteError } from "react-router";
import { EDITABLE_STATUSES } from "../../contracts/broadcasts";
import { type BroadcastChange } from "~/components/broadcasts/actions";
import { broadcastAction } from "./broadcasts-action";
import { BroadcastControls } from "~/components/broadcasts/controls";
import { client, data } from "~/lib/api";
import { readAudienceAds, readBroadcast, readLabels } from "~/components/broadcasts/data";
import { Funnel, Results, SendProgress } from "~/components/broadcasts/funnel";
import { BroadcastNotices } from "~/components/broadcasts/notices";
import { useOrganizationTime } from "~/components/broadcasts/organization-time";
import { PreviewPanel } from "~/components/broadcasts/preview-panel";
import {
  readRecipients,
  RecipientsTable,
  stateFromUrl,
} from "~/components/broadcasts/recipients-table";
import { StatusBadge } from "~/components/broadcasts/status-badge";
import { BroadcastSummary } from "~/components/broadcasts/summary";
import { useLiveBroadcast } from "~/components/broadcasts/use-live-broadcast";
import { hasStarted } from "~/components/broadcasts/when";
import { errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { live } from "~/lib/live-store";
import { useUrlState } from "~/lib/use-url-state";
import type { Route } from "./+types/broadcast";

export const meta = () => [{ title: "Difusión — Atiende" }];

/**
 * The broadcast, the labels and ads its audience names (the ads read only when it names any),
 * the first page of its recipients (in the
 * state the URL asks for) and, while it can still change, its preview: started, not awaited.
 */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs) {
  const id = params.broadcastId;
  const state = stateFromUrl(new URL(request.url).searchParams);
  const asked = live.mark();
  const [[broadcast, ads], labels, recipients] = await Promise.all([
    readBroadcast(id).then(
      async (broadcast) =>
        [broadcast, broadcast.audience.ad_ids?.length ? await readAudienceAds() : []] as const,
    ),
    readLabels(),
    readRecipients(id, state),
  ]);
  let preview = null;
  if (EDITABLE_STATUSES.includes(broadcast.status)) {
    preview = data(client.broadcasts[":id"].preview.$post({ param: { id } }));
    preview.catch(() => undefined); // The panel says so; the page does not break.
  }
  return { broadcast, labels, ads, recipients, state, preview, asked };
}

/** Send, pause, resume, cancel; a deleted draft goes back to the list. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const change = (await request.json()) as BroadcastChange;
  const result = await broadcastAction(change);
  if (result.ok && change.intent === "delete") return redirect("/broadcasts");
  return result;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center">
      <h1 className="text-xl font-semibold">
        {missing ? "Difusión no encontrada" : "Error al cargar la difusión"}
      </h1>
      {!missing && <p className="mt-2 text-sm text-slate-600">{errorMessage(error)}</p>}
      <Link
        to="/broadcasts"
        className="mt-4 inline-block rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white"
      >
        Volver a difusiones
      </Link>
    </section>
  );
}

export default function BroadcastRoute({ loaderData: loaded }: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const { timeZone, currency } = useOrganizationTime();
  const broadcast = useLiveBroadcast(loaded.broadcast, loaded.asked);
  const [params, setParams] = useUrlState();
  const state = stateFromUrl(params);
  const started = hasStarted(broadcast);
  const { status } = broadcast;

  return (
    <div className="space-y-6">
      <div>
        <Link to="/broadcasts" className="text-sm font-medium text-emerald-800 hover:underline">
          ← Difusiones
        </Link>
        <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
          <header className="min-w-0">
            <h1 className="break-words text-2xl font-bold text-slate-900">{broadcast.name}</h1>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <StatusBadge status={status} />
              <span>
                Plantilla {broadcast.template.name} ({broadcast.template.language})
              </span>
            </p>
          </header>
          {canManage && (
            <BroadcastControls broadcast={broadcast} timeZone={timeZone} preview={loaded.preview} />
          )}
        </div>
      </div>
      <BroadcastNotices broadcast={broadcast} timeZone={timeZone} />
      {!canManage && (status === "draft" || status === "scheduled") && (
        <p className="text-sm text-slate-600">
          Los propietarios y administradores envían, programan y cancelan las difusiones.
        </p>
      )}
      {started && (
        <>
          {(status === "sending" || status === "paused") && (
            <SendProgress stats={broadcast.stats} />
          )}
          <div className="grid gap-6 xl:grid-cols-2">
            <Funnel stats={broadcast.stats} />
            <Results broadcast={broadcast} currency={currency} />
          </div>
        </>
      )}
      <BroadcastSummary
        broadcast={broadcast}
        labels={loaded.labels}
        ads={loaded.ads}
        timeZone={timeZone}
      />
      {loaded.preview && !started && <PreviewPanel preview={loaded.preview} />}
      {started && (
        <RecipientsTable
          broadcastId={broadcast.id}
          firstPage={loaded.recipients}
          state={loaded.state}
          selected={state}
          timeZone={timeZone}
          onStateChange={(next) => {
            const search = new URLSearchParams(params);
            if (next) search.set("state", next);
            else search.delete("state");
            setParams(search, { replace: true, preventScrollReset: true });
          }}
        />
      )}
    </div>
  );
}
