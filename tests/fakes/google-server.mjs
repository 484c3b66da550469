// A local stand-in for Google's OAuth 2.0 server and Calendar API v3 as the product calls them:
// `POST /token` (form-encoded; `authorization_code` once per code, `refresh_token`; Google's
// `{error: "invalid_grant", error_description}` for a used, unknown or revoked grant),
// `POST /revoke`, `POST /calendar/v3/freeBusy`, events inserted (a client id, 409 when taken,
// even by a deleted event), patched and deleted at `/calendar/v3/calendars/{id}/events`, and
// `GET /calendar/v3/users/me/calendarList`. Calendar calls need a live access token (401
// otherwise). See tests/fakes/README.md.
import { randomBytes } from "node:crypto";
import { URLSearchParams } from "node:url";
import { sendJson, startRecordingServer } from "./http-kit.mjs";

export const GOOGLE_CLIENT_ID = "test-google-client.apps.googleusercontent.com";
export const GOOGLE_CLIENT_SECRET = "test-google-client-secret";

const random = () => randomBytes(12).toString("hex");

/** Google's error envelope of the Calendar API. */
function apiError(res, code, message, reason = "backendError", status = "UNKNOWN") {
  sendJson(res, code, {
    error: { code, message, errors: [{ domain: "global", reason, message }], status },
  });
}

const oauthError = (res, status, error, description) =>
  sendJson(res, status, { error, error_description: description });

/**
 * @param {{ port?: number, clientId?: string, clientSecret?: string }} options
 */
export async function startFakeGoogle({
  port = 0,
  clientId = GOOGLE_CLIENT_ID,
  clientSecret = GOOGLE_CLIENT_SECRET,
} = {}) {
  /** Codes minted by `/__fake/code`, by code: {label, used}. */
  const codes = new Map();
  /** Grants by refresh token: {label, revoked}. */
  const grants = new Map();
  /** Access tokens: the refresh token they came from. */
  const accessTokens = new Map();
  /** Busy intervals by calendar id. */
  const busy = new Map();
  /** Events by calendar id, then event id (a deleted one stays, `status: "cancelled"`). */
  const calendars = new Map();
  /** Inserts whose answer is lost after they are stored (`/__fake/lose-answer`), by text. */
  let lostAnswers = [];

  const eventsOf = (calendarId) => {
    if (!calendars.has(calendarId)) calendars.set(calendarId, new Map());
    return calendars.get(calendarId);
  };

  function newAccess(refreshToken) {
    const token = `ya29.${random()}`;
    accessTokens.set(token, refreshToken);
    return token;
  }

  function authorized(req) {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const refresh = accessTokens.get(token);
    return refresh !== undefined && !grants.get(refresh)?.revoked;
  }

  function control(action, body, res) {
    if (action === "code") {
      const code = `4/0A${random()}`;
      codes.set(code, {
        label: String(body?.label ?? ""),
        used: false,
        offline: body?.offline !== false,
      });
      return sendJson(res, 200, { code });
    }
    if (action === "revoke") {
      for (const grant of grants.values()) if (grant.label === body?.label) grant.revoked = true;
      return sendJson(res, 200, { ok: true });
    }
    if (action === "expire-access") {
      for (const [token, refresh] of accessTokens) {
        if (grants.get(refresh)?.label === body?.label) accessTokens.delete(token);
      }
      return sendJson(res, 200, { ok: true });
    }
    if (action === "busy") {
      busy.set(String(body?.calendar_id), body?.busy ?? []);
      return sendJson(res, 200, { ok: true });
    }
    if (action === "events") {
      const list = [...eventsOf(String(body?.calendar_id)).values()];
      return sendJson(res, 200, list);
    }
    if (action === "lose-answer") {
      lostAnswers.push(String(body?.contains ?? ""));
      return sendJson(res, 200, { ok: true });
    }
    if (action === "grants") {
      const list = [...grants.entries()]
        .filter(([, grant]) => grant.label === body?.label)
        .map(([refresh_token, grant]) => ({ refresh_token, ...grant }));
      return sendJson(res, 200, list);
    }
    return sendJson(res, 404, { error: "unknown control" });
  }

  function token(res, form) {
    if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret)
      return oauthError(res, 401, "invalid_client", "Unauthorized");
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") {
      const minted = codes.get(form.get("code") ?? "");
      if (!minted || minted.used || !form.get("redirect_uri"))
        return oauthError(res, 400, "invalid_grant", "Malformed auth code.");
      minted.used = true;
      const refresh = `1//0g${random()}`;
      grants.set(refresh, {
        label: minted.label,
        revoked: false,
        redirect_uri: form.get("redirect_uri"),
      });
      return sendJson(res, 200, {
        access_token: newAccess(refresh),
        expires_in: 3599,
        ...(minted.offline && { refresh_token: refresh }),
        scope:
          "https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.freebusy",
        token_type: "Bearer",
      });
    }
    if (grantType === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      const grant = grants.get(refresh);
      if (!grant || grant.revoked)
        return oauthError(res, 400, "invalid_grant", "Token has been expired or revoked.");
      return sendJson(res, 200, {
        access_token: newAccess(refresh),
        expires_in: 3599,
        scope:
          "https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.freebusy",
        token_type: "Bearer",
      });
    }
    return oauthError(res, 400, "unsupported_grant_type", "Invalid grant_type: " + grantType);
  }

  const started = await startRecordingServer(
    port,
    async (req, res, body, url) => {
      const path = url.pathname;
      if (path.startsWith("/__fake/")) return control(path.slice("/__fake/".length), body, res);

      if (path === "/token" && req.method === "POST")
        return token(res, new URLSearchParams(typeof body === "string" ? body : ""));
      if (path === "/revoke" && req.method === "POST") {
        const form = new URLSearchParams(typeof body === "string" ? body : "");
        const grant = grants.get(form.get("token") ?? "");
        if (!grant) return oauthError(res, 400, "invalid_token", "Bad Request");
        grant.revoked = true;
        return sendJson(res, 200, {});
      }

      if (!path.startsWith("/calendar/v3/")) return apiError(res, 404, "Not Found", "notFound");
      if (!authorized(req))
        return apiError(
          res,
          401,
          "Request had invalid authentication credentials.",
          "authError",
          "UNAUTHENTICATED",
        );

      if (path === "/calendar/v3/freeBusy" && req.method === "POST") {
        if (!body?.timeMin || !body?.timeMax || !Array.isArray(body?.items))
          return apiError(res, 400, "Bad Request", "badRequest");
        const min = Date.parse(body.timeMin);
        const max = Date.parse(body.timeMax);
        const answer = {};
        for (const { id } of body.items) {
          answer[id] = {
            busy: (busy.get(id) ?? []).filter(
              (b) => Date.parse(b.start) < max && Date.parse(b.end) > min,
            ),
          };
        }
        return sendJson(res, 200, {
          kind: "calendar#freeBusy",
          timeMin: body.timeMin,
          timeMax: body.timeMax,
          calendars: answer,
        });
      }

      if (path === "/calendar/v3/users/me/calendarList" && req.method === "GET") {
        return sendJson(res, 200, {
          kind: "calendar#calendarList",
          items: [{ id: "primary", summary: "Principal", primary: true, accessRole: "owner" }],
        });
      }

      const eventsPath = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
      if (!eventsPath) return apiError(res, 404, "Not Found", "notFound");
      const events = eventsOf(decodeURIComponent(eventsPath[1]));
      const eventId = eventsPath[2] && decodeURIComponent(eventsPath[2]);

      if (!eventId && req.method === "POST") {
        if (!body?.start?.dateTime || !body?.end?.dateTime)
          return apiError(res, 400, "Missing end time.", "required");
        if (body.id !== undefined && !/^[a-v0-9]{5,1024}$/.test(body.id))
          return apiError(res, 400, "Invalid resource id value.", "invalid");
        const id = body.id ?? random();
        if (events.has(id))
          return apiError(res, 409, "The requested identifier already exists.", "duplicate");
        const event = { ...body, id, kind: "calendar#event", status: "confirmed" };
        events.set(id, event);
        const lost = lostAnswers.findIndex((text) => JSON.stringify(body).includes(text));
        if (lost >= 0) {
          lostAnswers.splice(lost, 1);
          return apiError(res, 503, "The service is currently unavailable.");
        }
        return sendJson(res, 200, event);
      }
      const event = eventId ? events.get(eventId) : undefined;
      if (eventId && req.method === "PATCH") {
        if (!event) return apiError(res, 404, "Not Found", "notFound");
        if (event.status === "cancelled")
          return apiError(res, 410, "Resource has been deleted", "deleted");
        Object.assign(event, body);
        return sendJson(res, 200, event);
      }
      if (eventId && req.method === "DELETE") {
        if (!event) return apiError(res, 404, "Not Found", "notFound");
        if (event.status === "cancelled")
          return apiError(res, 410, "Resource has been deleted", "deleted");
        event.status = "cancelled";
        res.writeHead(204);
        return res.end();
      }
      return apiError(res, 404, "Not Found", "notFound");
    },
    (res, failure) =>
      failure.error?.error === "invalid_grant"
        ? sendJson(res, failure.status, failure.error)
        : apiError(
            res,
            failure.status,
            failure.error?.message ?? "Backend Error",
            failure.error?.reason,
          ),
    () => {
      codes.clear();
      grants.clear();
      accessTokens.clear();
      busy.clear();
      calendars.clear();
      lostAnswers = [];
    },
  );
  return { ...started, url: `http://127.0.0.1:${started.port}` };
}
