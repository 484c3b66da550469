import { useState } from "react";
import type { Booking } from "../../contracts/bookings";
import { type AgendaChange } from "~/components/agenda/actions";
import { agendaAction, googleCalendarAction } from "./agenda-action";
import { AgendaDays } from "~/components/agenda/agenda-days";
import { AgendaToolbar } from "~/components/agenda/agenda-toolbar";
import { BookingDialog, type BookingDialogMode } from "~/components/agenda/booking-dialog";
import { customerName, readCustomers } from "~/components/agenda/customers";
import { loadAgenda } from "~/components/agenda/data";
import { OpenNow } from "~/components/agenda/open-now";
import { ServicesPanel } from "~/components/agenda/services-panel";
import {
  GoogleCalendarBanner,
  GoogleCalendarPanel,
  isGoogleChange,
  type GoogleChange,
} from "~/components/agenda/google-calendar-panel";
import { readReminders, RemindersPanel } from "~/components/agenda/reminders-panel";
import { useAgendaBookings } from "~/components/agenda/use-agenda-bookings";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { useAuth } from "~/lib/auth";
import { client, data } from "~/lib/api";
import type { Route } from "./+types/agenda";

export const meta = () => [{ title: "Agenda — Atiende" }];

const TITLE = "Agenda";
const DESCRIPTION =
  "Las citas de tus clientes por día o por semana, y los servicios que se reservan.";

/** The days shown with their bookings, the services, the team, the hours and the latest customers. */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const [agenda, customers, google, reminders] = await Promise.all([
    loadAgenda(new URL(request.url)),
    readCustomers(),
    // Google Calendar is optional: the Agenda shows without it.
    data(client.integrations.google.$get()).catch(() => null),
    readReminders(),
  ]);
  return { ...agenda, customers, google, reminders };
}
// The token lives in localStorage: the agenda is read in the browser, even on first load.
clientLoader.hydrate = true as const;

/** Bookings made, moved and marked; services created and changed (components/agenda/actions.ts). */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const change = (await request.json()) as AgendaChange | GoogleChange;
  return isGoogleChange(change) ? googleCalendarAction(change) : agendaAction(change);
}

export function ErrorBoundary() {
  return (
    <RouteError title={TITLE} description={DESCRIPTION} failure="No se pudo cargar la agenda" />
  );
}

export default function Agenda({ loaderData }: Route.ComponentProps) {
  const { filters, days, timeZone, services, members, customers, organization } = loaderData;
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const [dialog, setDialog] = useState<BookingDialogMode | null>(null);
  const bookings = useAgendaBookings({
    bookings: loaderData.bookings.bookings,
    asked: loaderData.asked,
    range: loaderData.range,
    serviceId: filters.serviceId,
  });
  const shown = filters.staffId
    ? bookings.filter((b) => b.staff_user_id === filters.staffId)
    : bookings;
  const names = new Map(members.map((m) => [m.user_id, m.full_name]));
  const customerNames = new Map(customers.map((c) => [c.id, customerName(c)]));
  const customerOf = (b: Booking) => customerNames.get(b.conversation_id) ?? "Ver conversación";

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <div className="mb-6 flex items-center gap-3">
          <OpenNow open={organization.open_now} />
          <Button onClick={() => setDialog({ kind: "create", date: filters.date })}>
            Nueva cita
          </Button>
        </div>
      </div>
      <GoogleCalendarBanner google={loaderData.google} canManage={canManage} />
      <AgendaToolbar filters={filters} services={services} members={members} timeZone={timeZone} />
      <p className="mb-3 text-xs text-slate-600">Horas en {timeZone}.</p>
      {!loaderData.bookings.complete && (
        <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Hay más citas de las que caben aquí: filtra por servicio o mira un día.
        </p>
      )}
      <AgendaDays
        days={days}
        bookings={shown}
        timeZone={timeZone}
        customerOf={customerOf}
        personOf={(id) => (id ? (names.get(id) ?? null) : null)}
        onMove={(booking) => setDialog({ kind: "move", booking })}
      />
      <ServicesPanel
        services={services}
        members={members}
        canManage={canManage}
        currency={organization.currency}
      />
      <GoogleCalendarPanel google={loaderData.google} canManage={canManage} />
      <RemindersPanel settings={loaderData.reminders} canManage={canManage} />
      {dialog && (
        <BookingDialog
          mode={dialog}
          services={services}
          members={members}
          customers={customers.map((c) => ({ value: c.id, label: customerName(c) }))}
          timeZone={timeZone}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
