import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { toastFailed } from "~/lib/outcome";
import {
  RECIPIENT_STATES,
  SKIP_REASONS,
  type BroadcastRecipient,
  type RecipientState,
} from "../../../contracts/broadcasts";
import { Button } from "~/components/ui/button";
import { client, data } from "~/lib/api";
import { metaReason, RECIPIENT_STATE_LABELS, SKIP_REASON_ONE } from "./labels";
import { RecipientStateBadge } from "./status-badge";
import { formatZoned } from "./zoned-time";

/** How many recipients a page brings. */
export const RECIPIENTS_PAGE_SIZE = 50;

/** The state filter the URL asks for (`?state=`), if it is one. */
export const stateFromUrl = (params: URLSearchParams): RecipientState | undefined => {
  const state = params.get("state");
  return RECIPIENT_STATES.find((s) => s === state);
};

/** A page of a broadcast's recipients in a state, after the conversation `after`. */
export const readRecipients = (id: string, state?: RecipientState, after?: string) =>
  data(
    client.broadcasts[":id"].recipients.$get({
      param: { id },
      query: {
        limit: String(RECIPIENTS_PAGE_SIZE),
        ...(state && { state }),
        ...(after && { after }),
      },
    }),
  );

type Page = Awaited<ReturnType<typeof readRecipients>>;

/** Why this recipient did not get it, in Spanish: the API's words, else ours. */
function detailOf(r: BroadcastRecipient) {
  if (r.error) return r.error;
  if (!r.error_code) return null;
  const reason = SKIP_REASONS.find((s) => s === r.error_code);
  return reason ? SKIP_REASON_ONE[reason] : metaReason(r.error_code);
}

/** "+34611222333", as the console writes a customer's phone. */
const phoneOf = (r: BroadcastRecipient) => (r.phone_number ? `+${r.phone_number}` : null);

/** The furthest moment this recipient reached, to show beside its state. */
const lastMoment = (r: BroadcastRecipient) => r.read_at ?? r.delivered_at ?? r.sent_at;

/**
 * A page read again (a realtime update) laid over what is shown: its rows, then the rows
 * "Cargar más" had added beyond it.
 */
function merged(first: Page, shown: BroadcastRecipient[], shownHasMore: boolean) {
  const last = first.recipients.at(-1)?.conversation_id;
  const ids = new Set(first.recipients.map((r) => r.conversation_id));
  const beyond =
    first.has_more && last !== undefined
      ? shown.filter((r) => r.conversation_id > last && !ids.has(r.conversation_id))
      : [];
  return {
    recipients: [...first.recipients, ...beyond],
    hasMore: beyond.length > 0 ? shownHasMore : first.has_more,
  };
}

/**
 * The recipients of a broadcast that went out: each customer (to their conversation), state,
 * Meta's error in Spanish, and when. Filtered by state through the URL; "Cargar más" adds the
 * next page.
 */
export function RecipientsTable({
  broadcastId,
  firstPage,
  state,
  selected,
  timeZone,
  onStateChange,
}: {
  broadcastId: string;
  /** The first page the loader read, and the state it was read for. */
  firstPage: Page;
  state: RecipientState | undefined;
  /** The state the filter shows: the one asked for, maybe still loading. */
  selected: RecipientState | undefined;
  timeZone: string;
  onStateChange: (state: RecipientState | undefined) => void;
}) {
  const [recipients, setRecipients] = useState(firstPage.recipients);
  const [hasMore, setHasMore] = useState(firstPage.has_more);
  const [loadingMore, setLoadingMore] = useState(false);
  const shown = useRef({ recipients, hasMore, state });
  shown.current = { recipients, hasMore, state: shown.current.state };
  useEffect(() => {
    // Another filter starts afresh; the same one read again keeps the pages added.
    const same = shown.current.state === state;
    const next = same
      ? merged(firstPage, shown.current.recipients, shown.current.hasMore)
      : { recipients: firstPage.recipients, hasMore: firstPage.has_more };
    shown.current.state = state;
    setRecipients(next.recipients);
    setHasMore(next.hasMore);
  }, [firstPage, state]);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await readRecipients(broadcastId, state, recipients.at(-1)?.conversation_id);
      setRecipients((current) => [
        ...current,
        ...page.recipients.filter(
          (r) => !current.some((c) => c.conversation_id === r.conversation_id),
        ),
      ]);
      setHasMore(page.has_more);
    } catch (error) {
      toastFailed("Error al cargar los destinatarios", error);
    } finally {
      setLoadingMore(false);
    }
  }

  const cell = "px-4 py-3 align-top";
  const loading = selected !== state;
  return (
    <section
      aria-labelledby="recipients-title"
      className="rounded-xl border border-slate-200 bg-white"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 p-4">
        <h2 id="recipients-title" className="text-base font-semibold text-slate-900">
          Destinatarios
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <span className="font-medium text-slate-700">Estado</span>
          <select
            className="rounded-lg border border-slate-300 bg-white px-2 py-1"
            value={selected ?? ""}
            onChange={(e) => onStateChange(RECIPIENT_STATES.find((s) => s === e.target.value))}
          >
            <option value="">Todos</option>
            {RECIPIENT_STATES.map((s) => (
              <option key={s} value={s}>
                {RECIPIENT_STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {recipients.length === 0 ? (
        <p className="border-t border-slate-100 p-6 text-center text-sm text-slate-600">
          {state ? "Ningún destinatario en ese estado." : "Aún no hay destinatarios."}
        </p>
      ) : (
        <div
          aria-busy={loading}
          className={`overflow-x-auto border-t border-slate-100 transition-opacity ${loading ? "opacity-60" : ""}`}
        >
          <table aria-label="Destinatarios" className="min-w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs font-semibold text-slate-600">
              <tr>
                <th scope="col" className={cell}>
                  Cliente
                </th>
                <th scope="col" className={cell}>
                  Estado
                </th>
                <th scope="col" className={cell}>
                  Detalle
                </th>
                <th scope="col" className={`${cell} whitespace-nowrap`}>
                  Última novedad
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {recipients.map((r) => {
                const moment = lastMoment(r);
                return (
                  <tr key={r.conversation_id}>
                    <th scope="row" className={`${cell} font-medium`}>
                      <Link
                        to={`/conversations/${r.conversation_id}`}
                        className="text-emerald-800 hover:underline"
                      >
                        {r.customer_name || phoneOf(r) || "Usuario"}
                      </Link>
                      {r.customer_name && r.phone_number && (
                        <span className="block text-xs font-normal text-slate-500">
                          {phoneOf(r)}
                        </span>
                      )}
                    </th>
                    <td className={cell}>
                      <span className="flex flex-wrap items-center gap-1">
                        <RecipientStateBadge state={r.state} />
                        {r.replied_at && (
                          <span className="inline-block rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-800">
                            Respondió
                          </span>
                        )}
                      </span>
                    </td>
                    <td className={`${cell} min-w-48 text-slate-700`}>{detailOf(r) ?? "—"}</td>
                    <td className={`${cell} whitespace-nowrap text-slate-600`}>
                      {moment ? formatZoned(moment, timeZone) : "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {hasMore && (
        <div className="border-t border-slate-100 p-4">
          <Button variant="secondary" disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? "Cargando..." : "Cargar más"}
          </Button>
        </div>
      )}
    </section>
  );
}
