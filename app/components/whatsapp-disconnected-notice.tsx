import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import type { WhatsappStatusEvent } from "../../contracts/whatsapp";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useLiveVersion } from "~/lib/use-live";

/** Where a number is connected again. */
export const RECONNECT_LINK = "/settings?tab=meta";

/** The number's status and why Meta disconnected it, or null when there is no number. */
async function readStatus(): Promise<WhatsappStatusEvent | null> {
  try {
    const { status, disconnected_reason } = await data(client["whatsapp-config"].$get());
    return { status, disconnected_reason };
  } catch {
    // No number (404) or no answer: nothing to warn about; the next event says otherwise.
    return null;
  }
}

/**
 * One persistent notice for owners and admins while Meta has disconnected the organization's
 * number (`account_update`: the owner unlinked it in the app, the phone was not opened in
 * 14 days...): why, and where to connect it again. It appears and goes away live: the live
 * store's copy of the number's status (`whatsapp_status`) recorded after the read wins over it,
 * as on the Meta tab (decision 0145). Read again when the socket (re)opens, and what it read is
 * kept in the live store for the settings tabs (decision 0156). A number the team disconnected
 * itself has no reason, and no notice.
 */
export function WhatsappDisconnectedNotice() {
  const { role } = useAuth();
  const manages = role === "owner" || role === "admin";
  // The mark the latest read began at: what it read is the live store's copy after it (kept
  // there for the settings tabs too), unless an event since said newer; no number, no copy.
  const [asked, setAsked] = useState(0);

  const load = useCallback(() => {
    if (!manages) return;
    const mark = live.mark();
    void readStatus().then((status) => {
      if (status) live.whatsappStatusRead(status, mark);
      setAsked(mark);
    });
  }, [manages]);
  useEffect(load, [load]);
  useRealtimeConnected(load);
  useLiveVersion();
  const number = live.whatsappStatusSince(asked);
  const reason = number?.status === "disconnected" ? number.disconnected_reason : null;

  if (!manages || !reason) return null;
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      <p className="flex-1">
        <span className="font-semibold">WhatsApp está desconectado:</span> {reason} Los clientes no
        reciben respuestas hasta que lo vuelvas a conectar.
      </p>
      <Link
        to={RECONNECT_LINK}
        className="rounded-lg border border-red-300 bg-white px-3 py-1 font-medium text-red-800 hover:bg-red-100"
      >
        Volver a conectar
      </Link>
    </div>
  );
}
