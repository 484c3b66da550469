/**
 * The console's own tracking (spec, section 4): the ad parameters a visit arrived with are
 * kept in a tracking session whose id lives in localStorage under `tracking_session_id`.
 * One of the console's three writers outside a route's action (decision 0105), with sign-in
 * and sign-out: the visit is recorded on arrival, on whichever page it lands, before any
 * route's action could run.
 */
import { useEffect } from "react";
import { toastFailed } from "./outcome";
import {
  SESSION_TRIGGER_KEYS,
  TRACKING_PARAM_KEYS,
  type TrackingParams,
} from "../../contracts/tracking";
import { client, data } from "./api";

export const TRACKING_SESSION_KEY = "tracking_session_id";

/** fbclid, gclid, utm_*, ref (also from the URL hash), ad_id, campaign_id, adset_id. */
export function readTrackingParams(location: Pick<Location, "search" | "hash">): TrackingParams {
  const sources = [
    new URLSearchParams(location.search),
    new URLSearchParams(location.hash.replace(/^#/, "")),
  ];
  const params: TrackingParams = {};
  for (const key of TRACKING_PARAM_KEYS) {
    const value = sources.map((s) => s.get(key)).find(Boolean);
    if (value) params[key] = value.slice(0, 500);
  }
  return params;
}

async function initTracking() {
  const storedId = localStorage.getItem(TRACKING_SESSION_KEY);
  if (storedId) {
    try {
      await data(client.tracking.sessions[":id"].$get({ param: { id: storedId } }));
      return;
    } catch {
      localStorage.removeItem(TRACKING_SESSION_KEY);
    }
  }
  const params = readTrackingParams(window.location);
  if (!SESSION_TRIGGER_KEYS.some((key) => params[key])) return;
  const session = await data(
    client.tracking.sessions.$post({
      json: {
        tracking_params: params,
        user_agent: navigator.userAgent,
        referrer: document.referrer,
        landing_page: window.location.href,
      },
    }),
  );
  localStorage.setItem(TRACKING_SESSION_KEY, session.id);
}

/** Runs once a signed-in console has loaded. */
export function useConsoleTracking(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    initTracking().catch(() => toastFailed("Error inicializando tracking"));
  }, [enabled]);
}
