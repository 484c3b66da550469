// Hand-built requests here are the subject: the cookie the consent sets, and Google's redirect
// back to the callback (a browser's GET with that cookie and no token).
// Google Calendar (contract section 18, decisions 0124-0127): connecting it through Google's
// consent (a state bound to the session and organization, taken once; the code exchanged once;
// the grant sealed and never returned), busy times taking slots (across a daylight-saving day),
// Google down leaving availability to the own calendar and saying so, each booking's event
// created, moved and deleted after the booking, retried without a second event, `invalid_grant`
// disconnecting with bookings going on, roles, and a second organization seeing nothing.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Booking } from "../../contracts/bookings";
import { eventIdOf } from "../../durable-objects/integrations/google/events";
import { authorize } from "../../durable-objects/integrations/google/service";
import { findService } from "../../durable-objects/bookings/services";
import { readBookingSettings } from "../../durable-objects/bookings/settings";
import { upcomingSlots } from "../../durable-objects/flows/screens";
import { AppError } from "../../worker/http/errors";
import { api, answer } from "../support/api";
import {
  book,
  bookingOf,
  bookingOrganization,
  newConversation,
  type Owner,
} from "../support/bookings";
import { addMember, createOwner } from "../support/factories";
import { call } from "../support/http";
import { orgSql, withStoreDeps } from "../support/org-data";
import { makeDue } from "../support/scheduled-work";

type Row = Record<string, any>;
const FAKE = env.GOOGLE_API_URL;
const NINE = "2031-01-07T08:00:00.000Z"; // 09:00 in Madrid

async function fake<T = any>(action: string, body: unknown): Promise<T> {
  const res = await fetch(`${FAKE}/__fake/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

const nonceOf = (res: { headers: Headers }) =>
  /google_oauth_nonce=([^;]+)/.exec(res.headers.get("Set-Cookie") ?? "")?.[1] ?? "";

/** The consent asked for: its URL, the state in it and this browser's nonce cookie. */
async function consent(token: string) {
  // On `call`: the cookie the answer sets is the subject.
  const res = await call("GET", "/api/v1/integrations/google/authorize", { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = new URL(res.body.data.url);
  return { url, state: url.searchParams.get("state")!, nonce: nonceOf(res) };
}

/** Google's redirect back to the callback (a browser's GET with its cookie). */
const callback = (query: Record<string, string>, nonce?: string) =>
  call("GET", `/api/v1/integrations/google/callback?${new URLSearchParams(query)}`, {
    headers: nonce ? { Cookie: `google_oauth_nonce=${nonce}` } : {},
  });

const calendarOf = (orgId: string) =>
  `agenda-${orgId.replaceAll("-", "")}@group.calendar.google.com`;

/** Connects the owner's organization and chooses its own calendar in the fake. */
async function connect(owner: Owner) {
  const orgId = owner.organization.id as string;
  const { state, nonce } = await consent(owner.token);
  const { code } = await fake<{ code: string }>("code", { label: orgId });
  const res = await callback({ code, state }, nonce);
  expect(res.headers.get("Location")).toBe("/agenda?google=conectado");
  const chosen = await answer(
    api(owner.token).integrations.google.$put({ json: { calendar_id: calendarOf(orgId) } }),
  );
  expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
  return calendarOf(orgId);
}

const integrationOf = async (token: string) =>
  (await answer(api(token).integrations.google.$get())).body as { data: any };

const eventsIn = (calendarId: string) => fake<Row[]>("events", { calendar_id: calendarId });

/** Google's events of any calendar, as the fake is told to fail them. */
const EVENTS_PATH = { path: "/calendar/v3/calendars/.*/events", match: "regex" };

/** A booking of the service at `start`, its note what the fake's failures match on. */
async function bookNoted(
  owner: Owner,
  { serviceId, conversationId }: { serviceId: string; conversationId: string },
  start: string,
  note: string,
): Promise<Booking> {
  return bookingOf(
    await book(owner, { service_id: serviceId, start, conversation_id: conversationId, note }),
  );
}

/** Runs the store's alarm until no event is owed to Google (or the tries run out). */
async function settle(store: DurableObjectStub, orgId: string) {
  for (let i = 0; i < 30; i += 1) {
    await runDurableObjectAlarm(store);
    const [owed] = await orgSql<Row>(
      orgId,
      "SELECT count(*) AS n FROM google_booking_events WHERE dirty = 1",
    );
    if (owed!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function availability(owner: Owner, query: Record<string, string>) {
  const res = await answer(
    api(owner.token).bookings.availability.$get({
      query: query as { service_id: string; from: string; to: string },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: any }).data as {
    slots: { start: string }[];
    google_calendar: string | null;
    notice?: string;
  };
}

describe("connecting Google Calendar", () => {
  it("asks Google's consent with a state bound to the session, taken once, and never returns a token", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id as string;
    const { url, state, nonce } = await consent(owner.token);
    expect(url.origin + url.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(url.searchParams.get("client_id")).toBe(env.GOOGLE_CLIENT_ID);
    expect(url.searchParams.get("scope")).toBe(
      "https://www.googleapis.com/auth/calendar.events https://www.googleapis.com/auth/calendar.freebusy",
    );
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("redirect_uri")).toBe(
      "http://localhost:5173/api/v1/integrations/google/callback",
    );

    const { code } = await fake<{ code: string }>("code", { label: orgId });
    // A forged state, and the right one in a browser without its nonce: refused, code unused.
    const forged = await callback({ code, state: `${state.slice(0, -4)}abcd` }, nonce);
    expect(forged.headers.get("Location")).toContain("/agenda?google_error=invalid_state");
    const otherBrowser = await callback({ code, state }, "otro-navegador");
    expect(otherBrowser.headers.get("Location")).toContain("/agenda?google_error=invalid_state");
    const denied = await callback({ error: "access_denied", state }, nonce);
    expect(denied.headers.get("Location")).toContain("/agenda?google_error=access_denied");

    const done = await callback({ code, state }, nonce);
    expect(done.headers.get("Location")).toBe("/agenda?google=conectado");
    // The same state again (with a fresh code): taken already.
    const again = await fake<{ code: string }>("code", { label: orgId });
    const replay = await callback({ code: again.code, state }, nonce);
    expect(replay.headers.get("Location")).toContain("/agenda?google_error=invalid_state");

    const read = await integrationOf(owner.token);
    expect(read.data).toMatchObject({
      configured: true,
      connected: true,
      calendar_id: "primary",
      connected_by: owner.user.id,
      revoked_at: null,
    });
    const [grant] = await fake<Row[]>("grants", { label: orgId });
    expect(grant).toBeDefined();
    const [row] = await orgSql<Row>(orgId, "SELECT * FROM google_calendars");
    expect(row!.refresh_token_encrypted).toMatch(/^v1\./);
    expect(JSON.stringify([row, read])).not.toContain(grant!.refresh_token);
    expect(JSON.stringify(read)).not.toMatch(/ya29\.|1\/\/0g/);
    const audit = await orgSql<Row>(
      orgId,
      "SELECT metadata FROM audit_events WHERE action = 'organization.update'",
    );
    expect(audit.map((a) => JSON.parse(a.metadata))).toContainEqual({
      fields: ["google_calendar"],
      connected: true,
    });
  });

  it("is for owners and admins; an agent reads it only, and another organization sees nothing", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id as string;
    const agent = await addMember(orgId, "agent");
    const admin = await addMember(orgId, "admin");
    const refused = await call("GET", "/api/v1/integrations/google/authorize", {
      token: agent.token,
    });
    expect(refused.status).toBe(403);
    expect(
      (await answer(api(agent.token).integrations.google.$put({ json: { calendar_id: "x" } })))
        .status,
    ).toBe(403);
    expect((await answer(api(agent.token).integrations.google.$delete())).status).toBe(403);

    const asAdmin = await call("GET", "/api/v1/integrations/google/authorize", {
      token: admin.token,
    });
    expect(asAdmin.status).toBe(200);
    const calendarId = await connect(owner);
    expect((await integrationOf(agent.token)).data).toMatchObject({
      connected: true,
      calendar_id: calendarId,
    });
    const bad = await answer(
      api(owner.token).integrations.google.$put({ json: { calendar_id: "" } }),
    );
    expect(bad.status).toBe(422);

    const other = await createOwner();
    expect((await integrationOf(other.token)).data).toMatchObject({
      connected: false,
      calendar_id: null,
    });
    expect(await orgSql(other.organization.id, "SELECT * FROM google_calendars")).toEqual([]);
    // Another organization's manager cannot finish this one's consent.
    const { state, nonce } = await consent(owner.token);
    const { code } = await fake<{ code: string }>("code", { label: "otra" });
    const { nonce: otherNonce } = await consent(other.token);
    const crossed = await callback({ code, state }, otherNonce);
    expect(crossed.headers.get("Location")).toContain("/agenda?google_error=invalid_state");
    expect(nonce).not.toBe(otherNonce);
  });

  it("disconnects: the grant is given back to Google and forgotten", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id as string;
    await connect(owner);
    const res = await answer(api(owner.token).integrations.google.$delete());
    expect(res.status).toBe(200);
    expect((await integrationOf(owner.token)).data).toMatchObject({
      connected: false,
      revoked_at: null,
    });
    const [grant] = await fake<Row[]>("grants", { label: orgId });
    expect(grant!.revoked).toBe(true);
    const [row] = await orgSql<Row>(orgId, "SELECT * FROM google_calendars");
    expect(row!.refresh_token_encrypted).toBeNull();
  });

  it("says it is not configured when the server has no Google client", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id as string;
    const error = await withStoreDeps(orgId, (deps) =>
      authorize(
        { ...deps, env: { ...deps.env, GOOGLE_CLIENT_ID: undefined } },
        {
          userId: owner.user.id,
          organizationId: orgId,
          role: "owner",
          sessionId: "s",
          ip: null,
        },
      ).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe(
      "Google Calendar no está configurado en el servidor (faltan GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET).",
    );
  });
});

describe("busy times", () => {
  it("take the slots they meet, across a daylight-saving day", async () => {
    const { owner, service } = await bookingOrganization();
    const calendarId = await connect(owner);
    await fake("busy", {
      calendar_id: calendarId,
      busy: [
        { start: "2031-01-07T08:00:00Z", end: "2031-01-07T08:30:00Z" },
        // 2031-03-30: Madrid moves to summer time at 02:00; 09:00 is 07:00 UTC that day.
        { start: "2031-03-30T07:00:00Z", end: "2031-03-30T07:30:00Z" },
      ],
    });
    const winter = await availability(owner, {
      service_id: service.id,
      from: "2031-01-07",
      to: "2031-01-07",
    });
    expect(winter.google_calendar).toBe("applied");
    expect(winter.slots.map((s) => s.start)).toEqual(["2031-01-07T08:30:00.000Z"]);

    const change = await availability(owner, {
      service_id: service.id,
      from: "2031-03-29",
      to: "2031-03-30",
    });
    expect(change.slots.map((s) => s.start)).toEqual([
      "2031-03-29T08:00:00.000Z",
      "2031-03-29T08:15:00.000Z",
      "2031-03-29T08:30:00.000Z",
      "2031-03-30T07:30:00.000Z",
    ]);
    const [asked] = (
      (await fetch(`${FAKE}/__fake/requests`).then((r) => r.json())) as Row[]
    ).filter(
      (r) => r.path === "/calendar/v3/freeBusy" && r.body?.timeMin === "2031-03-28T23:00:00.000Z",
    );
    expect(asked!.body.items).toEqual([{ id: calendarId }]);

    // Another organization, not connected, keeps every slot.
    const other = await bookingOrganization();
    const free = await availability(other.owner, {
      service_id: other.service.id,
      from: "2031-01-07",
      to: "2031-01-07",
    });
    expect(free.google_calendar).toBeNull();
    expect(free.slots).toHaveLength(3);
  });

  it("leave availability to the own calendar when Google fails, and it says so", async () => {
    const { owner, service } = await bookingOrganization();
    const calendarId = await connect(owner);
    await fake("busy", {
      calendar_id: calendarId,
      busy: [{ start: "2031-01-09T08:00:00Z", end: "2031-01-09T09:00:00Z" }],
    });
    await fake("fail", {
      path: "/calendar/v3/freeBusy",
      contains: calendarId,
      status: 500,
    });
    const down = await availability(owner, {
      service_id: service.id,
      from: "2031-01-09",
      to: "2031-01-09",
    });
    expect(down.google_calendar).toBe("unavailable");
    expect(down.notice).toBe(
      "No se pudo consultar Google Calendar: los huecos se calculan solo con la agenda propia.",
    );
    expect(down.slots).toHaveLength(3);
  });
  it("are read with a refreshed access token when Google refuses the one kept", async () => {
    const { owner, service, orgId } = await bookingOrganization();
    await connect(owner);
    const [before] = await orgSql<Row>(
      orgId,
      "SELECT access_token_encrypted FROM google_calendars",
    );
    await fake("expire-access", { label: orgId });
    const read = await availability(owner, {
      service_id: service.id,
      from: "2031-01-10",
      to: "2031-01-10",
    });
    expect(read.google_calendar).toBe("applied");
    const [after] = await orgSql<Row>(orgId, "SELECT * FROM google_calendars");
    expect(after!.access_token_encrypted).not.toBe(before!.access_token_encrypted);
    expect(after!.refresh_token_encrypted).not.toBeNull();
  });

  it("take the booking Flow's slots too", async () => {
    const { owner, service, orgId } = await bookingOrganization();
    const offered = () =>
      withStoreDeps(orgId, async (deps) =>
        upcomingSlots(
          deps,
          orgId,
          await findService(deps.orgDb, orgId, service.id),
          await readBookingSettings(deps.orgDb, orgId),
        ),
      );
    expect((await offered()).length).toBeGreaterThan(0);
    const calendarId = await connect(owner);
    const now = Date.now();
    await fake("busy", {
      calendar_id: calendarId,
      busy: [
        {
          start: new Date(now).toISOString(),
          end: new Date(now + 40 * 86_400_000).toISOString(),
        },
      ],
    });
    expect(await offered()).toEqual([]);
  });
});

describe("a booking's event", () => {
  it("is created, moved and deleted with the booking, after it", async () => {
    const { owner, service, store, orgId } = await bookingOrganization();
    const calendarId = await connect(owner);
    const conversationId = await newConversation(owner);
    const made = await book(owner, {
      service_id: service.id,
      start: NINE,
      conversation_id: conversationId,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const booking = bookingOf(made);
    await settle(store, orgId);
    const eventId = `bk${booking.id.replaceAll("-", "")}`;
    expect(await eventsIn(calendarId)).toEqual([
      expect.objectContaining({
        id: eventId,
        status: "confirmed",
        summary: "Limpieza dental",
        start: { dateTime: NINE },
        end: { dateTime: "2031-01-07T08:30:00.000Z" },
      }),
    ]);

    const moved = await answer(
      api(owner.token).bookings[":id"].$patch({
        param: { id: booking.id },
        json: { start: "2031-01-08T08:00:00Z" },
      }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await settle(store, orgId);
    expect(await eventsIn(calendarId)).toEqual([
      expect.objectContaining({ id: eventId, start: { dateTime: "2031-01-08T08:00:00.000Z" } }),
    ]);

    const cancelled = await answer(
      api(owner.token).bookings[":id"].$patch({
        param: { id: booking.id },
        json: { status: "cancelled", reason: "No puede venir" },
      }),
    );
    expect(cancelled.status).toBe(200);
    await settle(store, orgId);
    expect(await eventsIn(calendarId)).toEqual([
      expect.objectContaining({ id: eventId, status: "cancelled" }),
    ]);
    const [row] = await orgSql<Row>(orgId, "SELECT * FROM google_booking_events");
    expect(row).toMatchObject({ dirty: 0, present: 0, attempts: 0 });
  });

  it("is retried after Google failed, and never made twice", async () => {
    const { owner, service, store, orgId } = await bookingOrganization();
    const calendarId = await connect(owner);
    const conversationId = await newConversation(owner);
    const lost = `respuesta-perdida-${crypto.randomUUID()}`;
    const down = `google-caido-${crypto.randomUUID()}`;
    // The first insert is stored by Google but its answer lost; the second fails outright.
    await fake("lose-answer", { contains: lost });
    await fake("fail", { ...EVENTS_PATH, contains: down, status: 500 });
    const booked = { serviceId: service.id, conversationId };
    const first = await bookNoted(owner, booked, NINE, lost);
    const second = await bookNoted(owner, booked, "2031-01-07T08:30:00Z", down);
    expect([first.status, second.status]).toEqual(["confirmed", "confirmed"]);
    await runDurableObjectAlarm(store);
    const owed = await orgSql<Row>(
      orgId,
      "SELECT booking_id, attempts, last_error FROM google_booking_events WHERE dirty = 1",
    );
    expect(owed.length).toBeGreaterThan(0);
    expect((await integrationOf(owner.token)).data.pending_events).toBeGreaterThan(0);

    await makeDue(store, "job:google_events");
    await settle(store, orgId);
    const events = (await eventsIn(calendarId)).map((e) => e.id).sort();
    expect(events).toEqual(
      [first, second].map((b: Booking) => `bk${b.id.replaceAll("-", "")}`).sort(),
    );
    expect((await integrationOf(owner.token)).data.pending_events).toBe(0);
  });

  it("is not sent again while Google refuses it as it is, says so, and is sent once the booking changes", async () => {
    const { owner, service, store, orgId } = await bookingOrganization();
    const calendarId = await connect(owner);
    const conversationId = await newConversation(owner);
    const refusedNote = `rechazada-${crypto.randomUUID()}`;
    const limitedNote = `limitada-${crypto.randomUUID()}`;
    // Google refuses one event as it is (400), and asks to slow down on another (a 403 rate limit).
    await fake("fail", {
      ...EVENTS_PATH,
      contains: refusedNote,
      status: 400,
      error: { message: "Invalid start time." },
    });
    await fake("fail", {
      ...EVENTS_PATH,
      contains: limitedNote,
      status: 403,
      error: { message: "Rate Limit Exceeded", reason: "rateLimitExceeded" },
    });
    const booked = { serviceId: service.id, conversationId };
    const refused = await bookNoted(owner, booked, NINE, refusedNote);
    const limited = await bookNoted(owner, booked, "2031-01-07T08:30:00Z", limitedNote);
    // The first run meets both failures; the rate limit's makes the job wait, made due here.
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(store);
        const tried = await orgSql<Row>(
          orgId,
          "SELECT count(*) AS n FROM google_booking_events WHERE attempts > 0",
        );
        expect(tried[0]!.n).toBe(2);
      },
      { timeout: 10_000, interval: 50 },
    );
    await makeDue(store, "job:google_events");
    await settle(store, orgId);
    // The limited one was tried again and written; the refused one is owed no more.
    expect((await eventsIn(calendarId)).map((e) => e.id)).toEqual([eventIdOf(limited.id)]);
    const [row] = await orgSql<Row>(
      orgId,
      "SELECT dirty, present, last_error FROM google_booking_events WHERE booking_id = ?",
      refused.id,
    );
    expect(row).toMatchObject({ dirty: 0, present: 0, last_error: expect.stringContaining("400") });
    expect((await integrationOf(owner.token)).data).toMatchObject({
      pending_events: 0,
      refused_events: 1,
    });

    // The booking moves: its event is owed again, and Google takes it.
    const moved = await answer(
      api(owner.token).bookings[":id"].$patch({
        param: { id: refused.id },
        json: { start: "2031-01-08T08:00:00Z" },
      }),
    );
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await settle(store, orgId);
    expect((await eventsIn(calendarId)).map((e) => e.id).sort()).toEqual(
      [eventIdOf(refused.id), eventIdOf(limited.id)].sort(),
    );
    expect((await integrationOf(owner.token)).data).toMatchObject({
      pending_events: 0,
      refused_events: 0,
    });
  });

  it("invalid_grant disconnects with a banner, and bookings go on in the own calendar", async () => {
    const { owner, service, store, orgId } = await bookingOrganization();
    const admin = await addMember(orgId, "admin");
    await connect(owner);
    await fake("revoke", { label: orgId });
    const conversationId = await newConversation(owner);
    const made = await book(owner, {
      service_id: service.id,
      start: NINE,
      conversation_id: conversationId,
    });
    expect(made.status).toBe(201);
    await runDurableObjectAlarm(store);

    const read = (await integrationOf(admin.token)).data;
    expect(read).toMatchObject({ connected: false, revoked_at: expect.any(String) });
    const [row] = await orgSql<Row>(orgId, "SELECT * FROM google_calendars");
    expect(row).toMatchObject({ refresh_token_encrypted: null, access_token_encrypted: null });
    const audit = await orgSql<Row>(
      orgId,
      "SELECT metadata FROM audit_events WHERE action = 'organization.update'",
    );
    expect(audit.map((a) => JSON.parse(a.metadata))).toContainEqual({
      fields: ["google_calendar"],
      connected: false,
      reason: "invalid_grant",
    });

    const slots = await availability(owner, {
      service_id: service.id,
      from: "2031-01-07",
      to: "2031-01-07",
    });
    expect(slots.google_calendar).toBeNull();
    expect(slots.slots.map((s) => s.start)).toEqual(["2031-01-07T08:30:00.000Z"]);
    const next = await book(owner, {
      service_id: service.id,
      start: "2031-01-07T08:30:00Z",
      conversation_id: conversationId,
    });
    expect(next.status).toBe(201);

    // Connected again: the banner goes, and the events owed are written.
    const calendarId = await connect(owner);
    expect((await integrationOf(owner.token)).data.revoked_at).toBeNull();
    await settle(store, orgId);
    expect((await eventsIn(calendarId)).length).toBe(1);
  });
});
