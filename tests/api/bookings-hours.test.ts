// Opening hours and availability (contract section 18, decisions 0076 and 0078): the structured
// hours beside onboarding's text, "open now", and slots in the organization's time zone across
// daylight-saving changes (Madrid's) and where there are none (Mexico City's, Bogotá's), on
// closed dates, after the notice, and around live bookings with their buffer.
import { describe, expect, it } from "vitest";
import type { BookingHours } from "../../contracts/bookings";
import type { Organization } from "../../contracts/organizations";
import { api, answer } from "../support/api";
import {
  ALWAYS,
  NINE_TO_TEN,
  book,
  bookingOrganization,
  createService,
  newConversation,
  patchOrganization,
  setHours,
  slotsOf,
} from "../support/bookings";
import { createOwner } from "../support/factories";

type Settings = Organization & BookingHours;
const starts = (slots: { start: string }[]) => slots.map((slot) => slot.start);
const day = (date: string) => ({ from: date, to: date });

describe("opening hours", () => {
  it("are kept beside onboarding's text, which the organization still answers", async () => {
    const owner = await createOwner();
    const res = await patchOrganization(owner, {
      business_hours: {
        time_zone: "Europe/Madrid",
        week: { ...NINE_TO_TEN, sat: [], sun: [] },
        closed_dates: ["2026-12-25", "2026-12-25"],
      },
      away_message: { enabled: true, text: "Ahora estamos cerrados: te respondemos mañana." },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const settings = (res.body as { data: Settings }).data;
    expect(settings.business_hours).toBe("L-V 9:00-19:00");
    expect(settings.opening_hours).toEqual({
      time_zone: "Europe/Madrid",
      week: { ...NINE_TO_TEN, sat: [], sun: [] },
      closed_dates: ["2026-12-25"],
    });
    expect(settings.away_message).toEqual({
      enabled: true,
      text: "Ahora estamos cerrados: te respondemos mañana.",
    });
    expect(settings.min_notice_minutes).toBe(120);
    expect(typeof settings.open_now).toBe("boolean");

    // The text is still onboarding's field, and changing it leaves the structured hours.
    const text = await patchOrganization(owner, { business_hours: "L-S 10:00-20:00" });
    expect(text.body).toMatchObject({
      data: { business_hours: "L-S 10:00-20:00", opening_hours: { time_zone: "Europe/Madrid" } },
    });
    const me = await answer(api(owner.token).organizations.me.$get());
    expect(me.body).toMatchObject({
      data: { business_hours: "L-S 10:00-20:00", away_message: { enabled: true } },
    });
  });

  it("say whether the business is open now", async () => {
    const owner = await createOwner();
    const before = await answer(api(owner.token).organizations.me.$get());
    expect(before.body).toMatchObject({ data: { open_now: null, opening_hours: null } });
    await setHours(owner, ALWAYS);
    const open = await answer(api(owner.token).organizations.me.$get());
    expect(open.body).toMatchObject({ data: { open_now: true } });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await setHours(owner, ALWAYS, { timeZone: "UTC", closedDates: [today, tomorrow] });
    const closed = await answer(api(owner.token).organizations.me.$get());
    expect(closed.body).toMatchObject({ data: { open_now: false } });
  });

  it("refuse a malformed week, date or zone with the field named in Spanish", async () => {
    const owner = await createOwner();
    const res = await patchOrganization(owner, {
      business_hours: {
        time_zone: "Marte/Olympus",
        week: {
          ...NINE_TO_TEN,
          mon: [["10:00", "09:00"]],
          tue: [
            ["09:00", "12:00"],
            ["11:00", "13:00"],
          ],
        },
        closed_dates: ["2026-02-30"],
      },
      away_message: { enabled: true, text: "" },
      min_notice_minutes: -5,
    });
    expect(res.status).toBe(422);
    const paths = (res.body as unknown as { details: { path: string; message: string }[] }).details;
    expect(Object.fromEntries(paths.map((d) => [d.path, d.message]))).toMatchObject({
      "business_hours.time_zone": expect.stringMatching(/Zona horaria desconocida/),
      "business_hours.week.mon.0": "Cada tramo debe cerrar después de abrir, el mismo día",
      "business_hours.week.tue": "Los tramos de un día no pueden solaparse",
      "business_hours.closed_dates.0": expect.stringMatching(/AAAA-MM-DD/),
      "away_message.text": "Escribe el mensaje de ausencia para activarlo",
      min_notice_minutes: "La antelación mínima no puede ser negativa",
    });
    const me = await answer(api(owner.token).organizations.me.$get());
    expect(me.body).toMatchObject({
      data: { opening_hours: null, away_message: { enabled: false } },
    });
  });

  it("are the managers' to set", async () => {
    const owner = await createOwner();
    const { addMember } = await import("../support/factories");
    const agent = await addMember(owner.organization.id, "agent");
    const res = await answer(
      api(agent.token).organizations[":id"].$patch({
        param: { id: owner.organization.id },
        json: { min_notice_minutes: 0 },
      }),
    );
    expect(res.status).toBe(403);
  });
});

describe("availability", () => {
  it("follows Madrid's clocks on the days they change", async () => {
    const { owner, service } = await bookingOrganization();
    // Saturday before the spring change (UTC+1) and its Sunday (UTC+2): 09:00 local each day.
    expect(starts(await slotsOf(owner, { service_id: service.id, ...day("2027-03-27") }))).toEqual([
      "2027-03-27T08:00:00.000Z",
      "2027-03-27T08:15:00.000Z",
      "2027-03-27T08:30:00.000Z",
    ]);
    expect(starts(await slotsOf(owner, { service_id: service.id, ...day("2027-03-28") }))).toEqual([
      "2027-03-28T07:00:00.000Z",
      "2027-03-28T07:15:00.000Z",
      "2027-03-28T07:30:00.000Z",
    ]);
    // Autumn: back to UTC+1 on the last Sunday of October.
    expect(starts(await slotsOf(owner, { service_id: service.id, ...day("2027-10-31") }))[0]).toBe(
      "2027-10-31T08:00:00.000Z",
    );
  });

  it("counts a night the clocks change through in real time", async () => {
    const owner = await createOwner();
    const night = Object.fromEntries(
      Object.keys(NINE_TO_TEN).map((d) => [d, [["01:00", "04:00"]]]),
    );
    await setHours(owner, night);
    const service = await createService(owner, { duration_minutes: 60 });
    // 01:00 CET to 04:00 CEST is two hours: starts every 15 minutes for the first hour.
    const spring = await slotsOf(owner, { service_id: service.id, ...day("2027-03-28") });
    expect(starts(spring)).toEqual([
      "2027-03-28T00:00:00.000Z",
      "2027-03-28T00:15:00.000Z",
      "2027-03-28T00:30:00.000Z",
      "2027-03-28T00:45:00.000Z",
      "2027-03-28T01:00:00.000Z",
    ]);
    // 01:00 CEST to 04:00 CET is four hours.
    const autumn = await slotsOf(owner, { service_id: service.id, ...day("2027-10-31") });
    expect(autumn[0]!.start).toBe("2027-10-30T23:00:00.000Z");
    expect(autumn.at(-1)!.start).toBe("2027-10-31T02:00:00.000Z");
    expect(autumn).toHaveLength(13);
    expect(autumn.at(-1)!.end).toBe("2027-10-31T03:00:00.000Z");
  });

  it("reads an opening the clocks skip with the offset before the change", async () => {
    const owner = await createOwner();
    const skipped = Object.fromEntries(
      Object.keys(NINE_TO_TEN).map((d) => [d, [["02:30", "05:00"]]]),
    );
    await setHours(owner, skipped);
    const service = await createService(owner, { duration_minutes: 60 });
    // 02:30 does not exist on 28 March 2027 in Madrid: 02:30 at UTC+1 is 03:30 at UTC+2.
    const slots = await slotsOf(owner, { service_id: service.id, ...day("2027-03-28") });
    expect(slots[0]!.start).toBe("2027-03-28T01:30:00.000Z");
    expect(slots.at(-1)!.start).toBe("2027-03-28T02:00:00.000Z");
  });

  it("has no change of clocks in Mexico City or Bogotá", async () => {
    for (const [timeZone, utcNine] of [
      ["America/Mexico_City", "15:00"],
      ["America/Bogota", "14:00"],
    ] as const) {
      const owner = await createOwner();
      await setHours(owner, NINE_TO_TEN, { timeZone });
      const service = await createService(owner);
      // Mexico's old summer time began on the first Sunday of April; the US's in March.
      for (const date of ["2027-03-13", "2027-03-14", "2027-04-03", "2027-04-04"]) {
        const slots = await slotsOf(owner, { service_id: service.id, ...day(date) });
        expect(slots[0]!.start, `${timeZone} ${date}`).toBe(`${date}T${utcNine}:00.000Z`);
      }
    }
  });

  it("skips closed dates and answers a range of at most 31 days", async () => {
    const { owner, service } = await bookingOrganization();
    await setHours(owner, NINE_TO_TEN, { closedDates: ["2027-05-04"] });
    const slots = await slotsOf(owner, {
      service_id: service.id,
      from: "2027-05-03",
      to: "2027-05-05",
    });
    expect(new Set(slots.map((s) => s.start.slice(0, 10)))).toEqual(
      new Set(["2027-05-03", "2027-05-05"]),
    );
    const month = await slotsOf(owner, {
      service_id: service.id,
      from: "2027-05-01",
      to: "2027-05-31",
    });
    expect(month).toHaveLength(31 * 3 - 3);
    const tooLong = await answer(
      api(owner.token).bookings.availability.$get({
        query: { service_id: service.id, from: "2027-05-01", to: "2027-06-01" },
      }),
    );
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({
      details: [{ path: "to", message: "Como mucho 31 días por consulta" }],
    });
    const backwards = await answer(
      api(owner.token).bookings.availability.$get({
        query: { service_id: service.id, from: "2027-05-03T10:00:00Z", to: "2027-05-03T09:00:00Z" },
      }),
    );
    expect(backwards.status).toBe(422);
    const garbage = await answer(
      api(owner.token).bookings.availability.$get({
        query: { service_id: service.id, from: "mañana", to: "2027-05-03" },
      }),
    );
    expect(garbage.status).toBe(400);
  });

  it("starts no earlier than now plus the notice", async () => {
    const owner = await createOwner();
    await setHours(owner, ALWAYS, { timeZone: "UTC", minNotice: 120 });
    const service = await createService(owner);
    const now = Date.now();
    const slots = await slotsOf(owner, {
      service_id: service.id,
      from: new Date(now).toISOString(),
      to: new Date(now + 6 * 3_600_000).toISOString(),
    });
    expect(Date.parse(slots[0]!.start)).toBeGreaterThanOrEqual(now + 120 * 60_000);
    expect(Date.parse(slots[0]!.start)).toBeLessThan(now + 136 * 60_000);
  });

  it("leaves out what a live booking takes, with its buffer, per staff member", async () => {
    const owner = await createOwner();
    const { addMember } = await import("../support/factories");
    const admin = await addMember(owner.organization.id, "admin");
    await setHours(owner, NINE_TO_TEN);
    const own = await createService(owner, { duration_minutes: 30, buffer_minutes: 15 });
    const booked = await book(owner, {
      service_id: own.id,
      conversation_id: await newConversation(owner),
      start: "2027-05-03T07:00:00Z",
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // 09:00-09:30 plus 15 minutes: a 30-minute slot with its buffer fits nowhere else before 10:00.
    expect(await slotsOf(owner, { service_id: own.id, ...day("2027-05-03") })).toEqual([]);

    const staffed = await createService(owner, {
      name: "Ortodoncia",
      duration_minutes: 30,
      staff_user_ids: [owner.user.id, admin.user.id],
    });
    const first = await book(owner, {
      service_id: staffed.id,
      conversation_id: await newConversation(owner),
      start: "2027-05-03T07:00:00Z",
      staff_user_id: admin.user.id,
    });
    expect(first.status).toBe(201);
    const slots = await slotsOf(owner, { service_id: staffed.id, ...day("2027-05-03") });
    // The owner is free at 09:00 (the organization's own calendar is another calendar).
    expect(slots[0]).toEqual({
      start: "2027-05-03T07:00:00.000Z",
      end: "2027-05-03T07:30:00.000Z",
      staff_user_id: owner.user.id,
    });
    // A range ending at 09:15 still sees the 09:30 booking its last slot would run into.
    const second = await book(owner, {
      service_id: staffed.id,
      conversation_id: await newConversation(owner),
      start: "2027-05-04T07:30:00Z",
      staff_user_id: admin.user.id,
    });
    expect(second.status).toBe(201);
    const beforeIt = await slotsOf(owner, {
      service_id: staffed.id,
      staff_user_id: admin.user.id,
      from: "2027-05-04T07:00:00Z",
      to: "2027-05-04T07:15:01Z",
    });
    expect(starts(beforeIt)).toEqual(["2027-05-04T07:00:00.000Z"]);
    const adminOnly = await slotsOf(owner, {
      service_id: staffed.id,
      staff_user_id: admin.user.id,
      ...day("2027-05-03"),
    });
    expect(starts(adminOnly)).toEqual(["2027-05-03T07:30:00.000Z"]);
  });
});
