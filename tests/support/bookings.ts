// What the bookings tests share (contract section 18): an organization with its opening hours,
// a service and a conversation to book for, through the API as the console calls it.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Booking, Service } from "../../contracts/bookings";
import { organizationStore } from "../../worker/stores/registry";
import { api, answer } from "./api";
import { createConversation, createOwner } from "./factories";

export type Owner = Awaited<ReturnType<typeof createOwner>>;

type OrganizationPatch = Parameters<
  ReturnType<typeof api>["organizations"][":id"]["$patch"]
>[0]["json"];
export type ServiceInput = Parameters<ReturnType<typeof api>["services"]["$post"]>[0]["json"];
export type BookingInput = Parameters<ReturnType<typeof api>["bookings"]["$post"]>[0]["json"];

/** Every day open from 09:00 to 10:00. */
export const NINE_TO_TEN = {
  mon: [["09:00", "10:00"]],
  tue: [["09:00", "10:00"]],
  wed: [["09:00", "10:00"]],
  thu: [["09:00", "10:00"]],
  fri: [["09:00", "10:00"]],
  sat: [["09:00", "10:00"]],
  sun: [["09:00", "10:00"]],
};

/** Every day, all day. */
export const ALWAYS = Object.fromEntries(
  Object.keys(NINE_TO_TEN).map((day) => [day, [["00:00", "24:00"]]]),
) as typeof NINE_TO_TEN;

export async function patchOrganization(owner: Owner, json: OrganizationPatch) {
  return answer(
    api(owner.token).organizations[":id"].$patch({ param: { id: owner.organization.id }, json }),
  );
}

export async function setHours(
  owner: Owner,
  week: Record<string, string[][]>,
  { timeZone = "Europe/Madrid", closedDates = [] as string[], minNotice = 120 } = {},
) {
  const res = await patchOrganization(owner, {
    business_hours: { time_zone: timeZone, week, closed_dates: closedDates },
    min_notice_minutes: minNotice,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function createService(owner: Owner, json: Partial<ServiceInput> = {}) {
  const res = await answer(
    api(owner.token).services.$post({
      json: { name: "Limpieza dental", duration_minutes: 30, ...json } as ServiceInput,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: Service }).data;
}

/** An owner whose organization opens 09:00-10:00 every day in Madrid, with one service. */
export async function bookingOrganization(service: Partial<ServiceInput> = {}) {
  const owner = await createOwner();
  await setHours(owner, NINE_TO_TEN);
  return {
    owner,
    orgId: owner.organization.id as string,
    service: await createService(owner, service),
    store: await organizationStore(env, owner.organization.id),
  };
}

export const newConversation = async (owner: Owner) =>
  (await createConversation(owner)).id as string;

export function book(owner: Owner, json: BookingInput, idempotencyKey?: string) {
  return answer(
    api(owner.token).bookings.$post({
      json,
      header: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
    }),
  );
}

export const bookingOf = (res: { body: unknown }) => (res.body as { data: Booking }).data;

export async function slotsOf(owner: Owner, query: Record<string, string>) {
  const res = await answer(
    api(owner.token).bookings.availability.$get({
      query: query as { service_id: string; from: string; to: string },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: { slots: { start: string; end: string; staff_user_id?: string }[] } })
    .data.slots;
}
