/** What the Agenda reads: its bookings for the days shown, services, team and opening hours. */
import type { Booking } from "../../../contracts/bookings";
import { client, data } from "~/lib/api";
import { live } from "~/lib/live-store";
import { dayOf, daysShown, rangeOf, type AgendaView } from "./dates";

/** The most bookings one read of `GET /bookings` brings. */
const PAGE = 100;
/** A week seldom has more; beyond this the screen says some are not shown. */
const MOST_PAGES = 5;

export const readServices = () => data(client.services.$get());
export const readMembers = () => data(client.organizations.members.$get());
export const readOrganization = () => data(client.organizations.me.$get());

/** The bookings starting in [from, to) (or a conversation's), every page up to MOST_PAGES. */
export async function readBookings(query: {
  from?: string;
  to?: string;
  service_id?: string;
  conversation_id?: string;
}) {
  const bookings: Booking[] = [];
  for (let page = 1; page <= MOST_PAGES; page++) {
    const answer = await data(
      client.bookings.$get({ query: { ...query, limit: String(PAGE), page: String(page) } }),
    );
    bookings.push(...answer.bookings);
    if (bookings.length >= answer.total) return { bookings, complete: true };
  }
  return { bookings, complete: false };
}

/** The filters the URL holds. */
export function agendaFilters(params: URLSearchParams, timeZone: string) {
  const view: AgendaView = params.get("view") === "week" ? "week" : "day";
  return {
    view,
    date: dayOf(params.get("date"), timeZone),
    serviceId: params.get("service") ?? "",
    staffId: params.get("staff") ?? "",
  };
}
export type AgendaFilters = ReturnType<typeof agendaFilters>;

/** Everything the screen shows; `asked` is the live store's mark when the reads started. */
export async function loadAgenda(url: URL) {
  const asked = live.mark();
  const organization = await readOrganization();
  const timeZone = organization.opening_hours?.time_zone ?? organization.time_zone;
  const filters = agendaFilters(url.searchParams, timeZone);
  const days = daysShown(filters.date, filters.view);
  const range = rangeOf(days, timeZone);
  const [bookings, services, members] = await Promise.all([
    readBookings({ ...range, ...(filters.serviceId && { service_id: filters.serviceId }) }),
    readServices(),
    readMembers(),
  ]);
  return { asked, organization, timeZone, filters, days, range, bookings, services, members };
}
export type AgendaData = Awaited<ReturnType<typeof loadAgenda>>;
