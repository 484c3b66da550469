/**
 * Agenda > Google Calendar (contract section 18, decisions 0124-0127): connecting it (Google's
 * consent, a full-page redirect that comes back to the Agenda), choosing the calendar,
 * disconnecting; and the banner owners and admins see after Google withdrew the grant. Writes
 * go through the Agenda route's action (decision 0105).
 */
import { useEffect, useRef, useState } from "react";
import { useFetcher, useSearchParams } from "react-router";
import {
  GOOGLE_CONNECT_ERRORS,
  GOOGLE_NOT_CONFIGURED,
  GOOGLE_REVOKED_BANNER,
  type GoogleConnectError,
  type GoogleIntegration,
} from "../../../contracts/google-calendar";
import { asJson } from "~/components/broadcasts/actions";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field } from "~/components/ui/field";
import type { Refusal } from "~/lib/forms";
import { toastDone, toastFailed } from "~/lib/outcome";

/** The Agenda's Google Calendar changes, as its route's action makes them. */
export type GoogleChange =
  | { intent: "google.connect" }
  | { intent: "google.calendar"; calendar_id: string }
  | { intent: "google.disconnect" };

export type GoogleActionResult =
  { ok: true; intent: GoogleChange["intent"] } | (Refusal & { intent: GoogleChange["intent"] });

export const isGoogleChange = (change: { intent?: unknown }): change is GoogleChange =>
  typeof change.intent === "string" && change.intent.startsWith("google.");

const isConnectError = (code: string): code is GoogleConnectError =>
  Object.hasOwn(GOOGLE_CONNECT_ERRORS, code);

/** Says once how Google's redirect ended (`?google=conectado`, `?google_error=<code>`). */
function useConsentOutcome() {
  const [params, setParams] = useSearchParams();
  const said = useRef(false);
  useEffect(() => {
    const connected = params.get("google") === "conectado";
    const error = params.get("google_error");
    if (said.current || (!connected && !error)) return;
    said.current = true;
    if (connected) toastDone("Google Calendar conectado");
    else
      toastFailed(
        "No se pudo conectar Google Calendar",
        error && isConnectError(error) ? GOOGLE_CONNECT_ERRORS[error] : undefined,
      );
    const rest = new URLSearchParams(params);
    rest.delete("google");
    rest.delete("google_error");
    setParams(rest, { replace: true });
  }, [params, setParams]);
}

function useGoogleChange() {
  const fetcher = useFetcher<GoogleActionResult>();
  return {
    submit: (change: GoogleChange) => fetcher.submit(change, { ...asJson, action: "/agenda" }),
    busy: fetcher.state !== "idle",
    result: fetcher.data,
  };
}

/** Above the Agenda, for owners and admins: Google withdrew the grant; connect again. */
export function GoogleCalendarBanner({
  google,
  canManage,
}: {
  google: GoogleIntegration | null;
  canManage: boolean;
}) {
  const change = useGoogleChange();
  if (!canManage || !google || google.connected || !google.revoked_at) return null;
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p>{GOOGLE_REVOKED_BANNER}</p>
      <Button
        variant="secondary"
        disabled={change.busy || !google.configured}
        onClick={() => change.submit({ intent: "google.connect" })}
      >
        Conectar de nuevo
      </Button>
    </div>
  );
}

/** Agenda > Google Calendar: its state for everyone; connect, choose and disconnect for managers. */
export function GoogleCalendarPanel({
  google,
  canManage,
}: {
  google: GoogleIntegration | null;
  canManage: boolean;
}) {
  useConsentOutcome();
  const change = useGoogleChange();
  const [calendarId, setCalendarId] = useState(google?.calendar_id ?? "");
  const [confirming, setConfirming] = useState(false);
  useEffect(() => setCalendarId(google?.calendar_id ?? ""), [google?.calendar_id]);
  useEffect(() => {
    if (change.result?.intent === "google.disconnect" && !change.busy) setConfirming(false);
  }, [change.result, change.busy]);
  const fieldError =
    change.result && !change.result.ok && change.result.intent === "google.calendar"
      ? (change.result.fieldErrors.calendar_id ?? change.result.message)
      : undefined;

  return (
    <section aria-labelledby="google-calendar-title" className="mt-8 max-w-4xl">
      <h2 id="google-calendar-title" className="mb-3 text-lg font-semibold text-slate-900">
        Google Calendar
      </h2>
      <div className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
        {!google ? (
          <p className="text-slate-600">No se pudo leer el estado de Google Calendar.</p>
        ) : !google.configured ? (
          <p className="text-slate-600">{GOOGLE_NOT_CONFIGURED}</p>
        ) : !google.connected ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-slate-600">
              Conecta Google Calendar: sus horas ocupadas no se ofrecen a los clientes y cada cita
              crea, mueve y borra su evento.
            </p>
            {canManage ? (
              <Button
                disabled={change.busy}
                onClick={() => change.submit({ intent: "google.connect" })}
              >
                Conectar Google Calendar
              </Button>
            ) : (
              <p className="text-slate-600">Los propietarios y administradores lo conectan.</p>
            )}
          </div>
        ) : (
          <div className="space-y-3">
            <p className="text-slate-700">
              Conectado. Calendario: <span className="font-medium">{google.calendar_id}</span>
            </p>
            {google.pending_events > 0 && (
              <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-800">
                {google.pending_events === 1
                  ? "1 cita aún no está en Google Calendar: se reintenta sola."
                  : `${google.pending_events} citas aún no están en Google Calendar: se reintenta sola.`}
              </p>
            )}
            {google.refused_events > 0 && (
              <p className="rounded-lg bg-red-50 px-3 py-2 text-red-800">
                {google.refused_events === 1
                  ? "Google Calendar rechazó 1 cita: se volverá a enviar cuando la cita cambie."
                  : `Google Calendar rechazó ${google.refused_events} citas: se volverán a enviar cuando cambien.`}
              </p>
            )}
            {canManage && (
              <form
                className="flex flex-wrap items-end gap-3"
                onSubmit={(event) => {
                  event.preventDefault();
                  change.submit({ intent: "google.calendar", calendar_id: calendarId.trim() });
                }}
              >
                <Field
                  label="Calendario"
                  hint="«primary» es el calendario principal; otro se copia de su configuración en Google Calendar."
                  value={calendarId}
                  onChange={(event) => setCalendarId(event.target.value)}
                  error={fieldError}
                  className="min-w-64 flex-1"
                />
                <Button type="submit" variant="secondary" disabled={change.busy}>
                  Guardar calendario
                </Button>
                <Button variant="danger" disabled={change.busy} onClick={() => setConfirming(true)}>
                  Desconectar
                </Button>
              </form>
            )}
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        title="¿Desconectar Google Calendar?"
        description="Las citas siguen en la agenda propia; sus eventos dejan de actualizarse en Google Calendar."
        confirmLabel="Desconectar"
        busy={change.busy}
        onConfirm={() => change.submit({ intent: "google.disconnect" })}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
