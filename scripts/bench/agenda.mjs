// The "Agenda y cobra" benchmark (issue #47, decision 0132): on an organization with opening
// hours, a service and a connected number, in its store, each read against the bare route of the
// same minute: a week's and a month's availability (1,000 bookings in the month), bookings (each of
// a free slot), and the
// booking Flow's encrypted endpoint asked for a day's slots (as WhatsApp asks, at 8 and at 20
// customers at once). Then, on a second organization with the reminder's template chosen, 100
// confirmed bookings due for their reminder and the store's `booking_reminders` job asked once:
// the time from the ask to the last reminder at the fake Graph API, each of the 100 counted there.
import { createHmac, randomUUID } from "node:crypto";
import os from "node:os";
import { UNLISTED_TEMPLATES } from "../../tests/fakes/graph-server.mjs";
import {
  delivery,
  encryptFlowRequest,
  inboundMessage,
} from "../../tests/fakes/whatsapp-payloads.mjs";
import { sleep, storeSql } from "./server.mjs";

/** The numbers the two organizations connect (neither is another benchmark's). */
const PHONE_NUMBER_ID = "900000000000004";
const REMINDERS_PHONE_NUMBER_ID = "900000000000005";
const BUSINESS_ACCOUNT_ID = "880000000000004";
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Every day, all day: any slot the bench books is inside the hours. */
const ALWAYS = Object.fromEntries(
  ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((day) => [day, [["00:00", "24:00"]]]),
);
/** The service: 30 minutes, no buffer, nothing to pay (a booking is confirmed at once). */
const SERVICE = { name: "Limpieza dental", duration_minutes: 30 };
/**
 * The month measured (availability, the Flow's day): 1,000 confirmed bookings seeded into the
 * store from two days ahead, two of every three half hours (16 free slots a day remain).
 */
const SEEDED_BOOKINGS = 1_000;
/**
 * A member's writes a minute (`MEMBER_WRITES`, worker/http/write-limits.ts): past them the API
 * answers 429 by design, so the booking load is bounded by count as well as time, in a window of
 * its own (the owner's setup writes a minute earlier).
 */
const MEMBER_WRITES_A_MINUTE = 120;
/**
 * The booking benchmark's slots: one every hour after the seeded month, each free; a few fewer
 * than a member may write in a minute.
 */
const BOOKING_SLOTS = MEMBER_WRITES_A_MINUTE - 10;
const BOOKING_SLOT_MS = HOUR_MS;
const BOOKINGS_AFTER_MS = 32 * DAY_MS;
/** The reminder run: this many confirmed bookings, each of its own customer. */
const REMINDERS = 100;
const REMINDER_TEMPLATE = { name: "recordatorio_cita", language: "es" };
/** The reminder run is given up on after this long (the table then says so). */
const REMINDER_TIMEOUT_MS = 120_000;
/** Concurrent requests of the rate loads, the bare route's among them. */
const CONCURRENCY = 8;
/** The issue's Flow load: 20 customers at once, its p95 read against Meta's "within seconds". */
const FLOW_CUSTOMERS = 20;

/**
 * What decision 0132 asks of each, as a share of the bare route's requests a second in the same
 * run (availability and booking are API calls of a member: session, membership and the store).
 */
export const AGENDA_BUDGETS = {
  availabilityWeek: 0.15,
  availabilityMonth: 0.1,
  booking: 0.1,
  flow: 0.2,
  /** The Flow endpoint's p95 at 20 customers at once: Meta's answers within seconds, 1 s here. */
  flowP95Ms: 1_000,
  /** The reminder run, at most this many times what Meta's pace allows for its sends. */
  reminderRunOfPace: 2,
};
/**
 * What the product sends a second from a number (`NUMBER_PER_SECOND` times `HEADROOM`,
 * durable-objects/whatsapp/send-pace.ts): the reminder run can take no less than its sends at this pace.
 */
const PACE_PER_SECOND = 80 * 0.95;

/** @param {number} ms a day as `YYYY-MM-DD` (UTC) */
const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * @param {{ base: string,
 *   api: (path: string, options?: { token?: string, body?: unknown, method?: string }) => Promise<any>,
 *   appSecret: string, graph: import("./broadcast.mjs").GraphFake, publicKey: string,
 *   owner: { token: string, organizationId: string },
 *   remindersOwner: { token: string, organizationId: string },
 *   measured: (spec: Record<string, unknown>) => Promise<any>,
 *   cpu: () => number, durationMs: number, log: (...m: unknown[]) => void }} options
 *   `measured`: a load process's result with the server's CPU per request; `cpu`: the server's
 *   workerd CPU milliseconds so far; `publicKey`: the public half of the server's
 *   FLOWS_PRIVATE_KEY, which WhatsApp encrypts for.
 */
export async function agendaBench({
  base,
  api,
  appSecret,
  graph,
  publicKey,
  owner,
  remindersOwner,
  measured,
  cpu,
  durationMs,
  log,
}) {
  const { token } = owner;
  const auth = { authorization: `Bearer ${token}` };
  /** @param {string} body */
  const sign = (body) => `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;

  log("the agenda's organization: hours, a service, a number, a customer who wrote");
  const firstWrite = Date.now();
  const service = await bookingOrganization(api, owner, "UTC", PHONE_NUMBER_ID);
  const flow = await waitFor("the booking Flow registered", async () => {
    const state = await api("/whatsapp/booking-flow", { token });
    if (state.error) throw new Error(`the booking Flow was not registered: ${state.error}`);
    return state.published ? state : null;
  });
  const customer = "34655000001";
  const inbound = JSON.stringify(
    delivery(
      inboundMessage({ phoneNumberId: PHONE_NUMBER_ID, from: customer, text: "Hola, ¿cita?" }),
    ),
  );
  const delivered = await fetch(`${base}/webhooks/whatsapp`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": sign(inbound) },
    body: inbound,
  });
  if (!delivered.ok) throw new Error(`the customer's message: ${delivered.status}`);
  const conversationId = await waitFor("the customer's conversation", async () => {
    const list = await api("/conversations?limit=1", { token });
    return (Array.isArray(list) ? list[0] : list?.conversations?.[0])?.id ?? null;
  });

  // The Flow sent to the customer, its token read where WhatsApp got it (the fake).
  const sent = await api(`/conversations/${conversationId}/booking-flow`, {
    token,
    body: { service_id: service.id },
  });
  if (sent.kind !== "flow") throw new Error(`the Flow was not sent: ${JSON.stringify(sent)}`);
  const interactive = (await graph.requests())
    .filter((r) => r.body?.type === "interactive" && r.body?.to === customer)
    .at(-1)?.body.interactive;
  const flowToken = interactive?.action?.parameters?.flow_token;
  if (!flowToken) throw new Error("the fake Graph API did not receive the Flow");
  /**
   * @param {string} screen @param {Record<string, unknown>} data
   * @returns {Promise<any>} the opened answer
   */
  const exchange = async (screen, data) => {
    const request = await encryptFlowRequest(publicKey, {
      version: "3.0",
      action: "data_exchange",
      flow_token: flowToken,
      screen,
      data,
    });
    const raw = JSON.stringify(request.body);
    const res = await fetch(`${base}/webhooks/flows`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(raw) },
      body: raw,
    });
    if (res.status !== 200) throw new Error(`the Flow's ${screen}: ${res.status}`);
    return request.open(await res.text());
  };

  // The bookings' slots start two days ahead; the week and the month measured start there too,
  // the Flow's day is the first full day of them.
  const firstSlot = Math.ceil((Date.now() + 2 * DAY_MS) / HOUR_MS) * HOUR_MS;
  // Both ends are whole days, `to` included (the organization's days, UTC).
  const week = { from: dayOf(firstSlot), to: dayOf(firstSlot + 6 * DAY_MS) };
  const month = { from: week.from, to: dayOf(firstSlot + 30 * DAY_MS) };
  /** @param {{ from: string, to: string }} range */
  const bookedIn = (range) =>
    `SELECT count(*) AS n FROM bookings WHERE status = 'confirmed' AND starts_at >= '${range.from}' AND starts_at < '${dayOf(Date.parse(range.to) + DAY_MS)}'`;
  const flowDay = dayOf(firstSlot + DAY_MS);
  await seedMonth(base, owner.organizationId, { service, conversationId, firstSlot });
  const days = await exchange("SERVICE", { service: service.id });
  if (!days.data?.days?.some((/** @type {{ id: string }} */ d) => d.id === flowDay)) {
    throw new Error(`the Flow offers no ${flowDay}: ${JSON.stringify(days)}`);
  }
  const dayPayload = {
    version: "3.0",
    action: "data_exchange",
    flow_token: flowToken,
    screen: "DAY",
    data: { day: flowDay },
  };
  /** @param {{ from: string, to: string }} range */
  const availabilityPath = (range) =>
    `/api/v1/bookings/availability?service_id=${service.id}&from=${range.from}&to=${range.to}`;

  /** @type {Record<string, any>} */
  const r = { flow, firstSlot: new Date(firstSlot).toISOString(), week, month, flowDay };
  /** @param {string} name @param {Record<string, unknown>} spec */
  const rateOf = async (name, spec) => {
    log(`  ${name}`);
    const result = await measured({ mode: "rate", concurrency: CONCURRENCY, durationMs, ...spec });
    result.loadAverage = os.loadavg()[0];
    log(
      `    ${result.rate.toFixed(0)} req/s, p50 ${result.latency.p50?.toFixed(1)} ms, p95 ${result.latency.p95?.toFixed(1)} ms, ${JSON.stringify(result.statuses)} (load ${result.loadAverage.toFixed(1)})`,
    );
    return result;
  };

  // The owner's write window (a minute from its first write) over before the booking load.
  await sleep(Math.max(0, firstWrite + 62_000 - Date.now()));
  log("the agenda under load, beside the bare route");
  await measured({ mode: "rate", path: "/__bench/ok", concurrency: CONCURRENCY, durationMs: 2000 });
  r.bare = await rateOf("bare route", { path: "/__bench/ok" });
  r.booking = await rateOf(`bookings, each of a free slot (at most ${BOOKING_SLOTS})`, {
    kind: "booking",
    token,
    serviceId: service.id,
    conversationId,
    firstSlot: firstSlot + BOOKINGS_AFTER_MS,
    slots: BOOKING_SLOTS,
    slotMs: BOOKING_SLOT_MS,
  });
  r.booking.conflicts = r.booking.statuses["409"] ?? 0;
  r.booking.limited = r.booking.statuses["429"] ?? 0;
  const [inWeek, inMonth] = (
    await inStore(base, owner.organizationId, [bookedIn(week), bookedIn(month)])
  ).map((result) => Number(result.rows[0]?.n));
  r.bookingsInWeek = inWeek;
  r.bookingsInMonth = inMonth;
  r.availabilityWeek = await rateOf(`availability, a week (${inWeek} bookings in it)`, {
    path: availabilityPath(week),
    headers: auth,
  });
  r.availabilityMonth = await rateOf(`availability, 31 days (${inMonth} bookings in them)`, {
    path: availabilityPath(month),
    headers: auth,
  });
  const slots = await exchange("DAY", { day: flowDay });
  r.flowSlots = slots.data?.slots?.length ?? 0;
  if (slots.screen !== "SLOT" || r.flowSlots === 0) {
    throw new Error(`the Flow's day has no slots: ${JSON.stringify(slots)}`);
  }
  const flowSpec = { kind: "flow", appSecret, publicKey, payload: dayPayload };
  r.flow = await rateOf(`the Flow's slots of a day (${r.flowSlots} free)`, flowSpec);
  r.flowCustomers = await rateOf(`the same, ${FLOW_CUSTOMERS} customers at once`, {
    ...flowSpec,
    concurrency: FLOW_CUSTOMERS,
  });
  r.bareAfter = await rateOf("bare route, again", { path: "/__bench/ok" });

  log(`a reminder run: ${REMINDERS} confirmed bookings due for their reminder`);
  r.reminders = await reminderRun({ base, api, graph, owner: remindersOwner, cpu, log });
  return r;
}

/** @param {string} s a SQL string literal */
const q = (s) => `'${s.replaceAll("'", "''")}'`;

/**
 * The month's bookings, straight into the store as the bench seeds its other data (the rows the
 * bookings service writes for a confirmed booking of the organization's own calendar; no
 * reminders are planned, none is chosen): half-hour slots from `firstSlot`, two of every three.
 * @param {string} base @param {string} organizationId
 * @param {{ service: { id: string, name: string }, conversationId: string, firstSlot: number }} month
 */
async function seedMonth(base, organizationId, { service, conversationId, firstSlot }) {
  const stamp = q(new Date().toISOString());
  const rows = [];
  for (let k = 0; rows.length < SEEDED_BOOKINGS; k++) {
    if (k % 3 === 2) continue;
    const start = firstSlot + k * 30 * MINUTE_MS;
    const end = q(new Date(start + 30 * MINUTE_MS).toISOString());
    rows.push(
      `(${q(randomUUID())}, ${q(organizationId)}, ${q(service.id)}, ${q(service.name)}, ${q(conversationId)}, '', ${q(new Date(start).toISOString())}, ${end}, ${end}, 'confirmed', ${stamp}, ${stamp})`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += 100) {
    statements.push(
      `INSERT INTO bookings (id, organization_id, service_id, service_name, conversation_id, calendar, starts_at, ends_at, busy_until, status, created_at, updated_at) VALUES ${rows.slice(i, i + 100).join(", ")}`,
    );
  }
  await storeSql(base, organizationId, statements);
}

/**
 * Opening hours every day all day in `timeZone` (an hour's notice, no quiet hours), the service,
 * and the number connected as the console's form does it (checked with the fake, which the
 * booking Flow is registered on). Answers the service.
 * @param {(path: string, options?: { token?: string, body?: unknown, method?: string }) => Promise<any>} api
 * @param {{ token: string, organizationId: string }} owner
 * @param {string} timeZone @param {string} phoneNumberId
 */
async function bookingOrganization(api, { token, organizationId }, timeZone, phoneNumberId) {
  await api(`/organizations/${organizationId}`, {
    token,
    method: "PATCH",
    body: {
      business_hours: { time_zone: timeZone, week: ALWAYS, closed_dates: [] },
      min_notice_minutes: 60,
      quiet_hours_start: "00:00",
      quiet_hours_end: "00:00",
      time_zone: timeZone,
    },
  });
  const service = await api("/services", { token, body: SERVICE });
  await api("/whatsapp-config", {
    token,
    body: {
      phone_number_id: phoneNumberId,
      business_account_id: BUSINESS_ACCOUNT_ID,
      access_token: "sandbox-access-token",
    },
  });
  return service;
}

/**
 * The reminder run: the organization's reminder template (the fake's approved UTILITY one with
 * the three buttons, in its template list as a sync would put it), 100 customers, a confirmed
 * booking each through the API two days ahead (each planned its reminder), their reminders made
 * due, and the store's job asked once. Timed from the ask to the last reminder's arrival at the
 * fake; then counted at the fake (each customer once) and in the store (100 `sent`).
 * @param {{ base: string,
 *   api: (path: string, options?: { token?: string, body?: unknown, method?: string }) => Promise<any>,
 *   graph: import("./broadcast.mjs").GraphFake, owner: { token: string, organizationId: string },
 *   cpu: () => number, log: (...m: unknown[]) => void }} options
 */
async function reminderRun({ base, api, graph, owner, cpu, log }) {
  const { token, organizationId } = owner;
  const service = await bookingOrganization(api, owner, "UTC", REMINDERS_PHONE_NUMBER_ID);
  const template = UNLISTED_TEMPLATES.find(
    (t) => t.name === REMINDER_TEMPLATE.name && t.language === REMINDER_TEMPLATE.language,
  );
  if (!template) throw new Error("the fake has no reminder template");
  const stamp = new Date().toISOString();
  const customers = Array.from({ length: REMINDERS }, (_, i) => ({
    id: randomUUID(),
    phone: String(34656000000 + i),
  }));
  await storeSql(base, organizationId, [
    `INSERT INTO whatsapp_templates (id, organization_id, meta_template_id, name, language, category, status, components, updated_at)
     VALUES (${q(randomUUID())}, ${q(organizationId)}, ${q(template.id)}, ${q(template.name)}, ${q(template.language)}, ${q(template.category)}, ${q(template.status)}, ${q(JSON.stringify(template.components))}, ${q(stamp)})`,
    ...customers.map(
      (c, i) =>
        `INSERT INTO conversations (id, organization_id, wa_user_id, phone_number, contact_name, last_message_at, last_message_preview, last_inbound_at, labels, created_at, updated_at)
         VALUES (${q(c.id)}, ${q(organizationId)}, ${q(`ES.${13656000000000 + i}`)}, ${q(c.phone)}, ${q(`Clienta ${i + 1}`)}, ${q(stamp)}, 'Hola, ¿cita?', ${q(stamp)}, '[]', ${q(stamp)}, ${q(stamp)})`,
    ),
  ]);
  await api("/booking-reminders", { token, method: "PUT", body: { template: REMINDER_TEMPLATE } });
  const firstStart = Math.ceil((Date.now() + 2 * DAY_MS) / HOUR_MS) * HOUR_MS;
  for (const [i, c] of customers.entries()) {
    await api("/bookings", {
      token,
      body: {
        service_id: service.id,
        conversation_id: c.id,
        start: new Date(firstStart + i * 30 * MINUTE_MS).toISOString(),
      },
    });
  }
  const [made] = await inStore(base, organizationId, [
    `UPDATE booking_reminders SET due_at = ${Date.now() - 1} WHERE state = 'pending' RETURNING booking_id`,
  ]);
  if (made?.rows.length !== REMINDERS) {
    throw new Error(`${made?.rows.length ?? 0} reminders planned, not ${REMINDERS}`);
  }

  /** @param {any[]} requests */
  const remindersAtFake = (requests) =>
    requests.filter(
      (r) =>
        r.method === "POST" &&
        r.path.endsWith(`/${REMINDERS_PHONE_NUMBER_ID}/messages`) &&
        r.body?.template?.name === REMINDER_TEMPLATE.name,
    );
  const earlier = remindersAtFake(await graph.requests()).length;
  await sleep(300);
  const cpuBefore = cpu();
  const asked = Date.now();
  const res = await fetch(
    `${base}/__bench/store-job?organization=${organizationId}&job=booking_reminders`,
    { method: "POST" },
  );
  if (res.status !== 204) throw new Error(`the store's job: ${res.status}`);
  let sends = [];
  while (Date.now() - asked < REMINDER_TIMEOUT_MS) {
    sends = remindersAtFake(await graph.requests()).slice(earlier);
    if (sends.length >= REMINDERS) break;
    await sleep(100);
  }
  const lastAt = Math.max(...sends.map((s) => Date.parse(s.at)));
  const firstAt = Math.min(...sends.map((s) => Date.parse(s.at)));
  await sleep(500); // the job's writes after the last answer count too
  const cpuMs = cpu() - cpuBefore;
  const [states] = await inStore(base, organizationId, [
    `SELECT state, count(*) AS n FROM booking_reminders GROUP BY state`,
  ]);
  const recipients = new Set(sends.map((s) => String(s.body.to)));
  const totalMs = sends.length ? lastAt - asked : null;
  const result = {
    reminders: REMINDERS,
    sends: sends.length,
    recipients: recipients.size,
    seeded: customers.filter((c) => recipients.has(c.phone)).length,
    states: Object.fromEntries((states?.rows ?? []).map((s) => [s.state, s.n])),
    totalMs,
    firstSendAfterMs: sends.length ? firstAt - asked : null,
    perReminderMs: totalMs === null ? null : totalMs / REMINDERS,
    paceFloorMs: ((REMINDERS - 1) / PACE_PER_SECOND) * 1000,
    cpuMsPerReminder: cpuMs / REMINDERS,
    loadAverage: os.loadavg()[0],
  };
  log(
    `  ${result.sends} reminders at the fake in ${totalMs} ms (${result.perReminderMs?.toFixed(1)} ms each, first after ${result.firstSendAfterMs} ms), store: ${JSON.stringify(result.states)}`,
  );
  return result;
}

/**
 * Statements run in the organization's store through the bench's store-sql route (the seed's
 * way in), in one transaction: each one's rows and the rows it wrote.
 * @param {string} base @param {string} organizationId @param {string[]} statements
 * @returns {Promise<{ rows: Record<string, any>[], rowsWritten: number }[]>}
 */
async function inStore(base, organizationId, statements) {
  const res = await fetch(`${base}/__bench/store-sql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      organization_id: organizationId,
      statements: statements.map((sql) => ({ sql, params: [] })),
    }),
  });
  if (!res.ok)
    throw new Error(`store-sql for ${organizationId}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * @template T
 * @param {string} what @param {() => Promise<T | null>} read
 * @returns {Promise<T>}
 */
async function waitFor(what, read) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not after 30 s`);
    await sleep(200);
  }
}

/**
 * The section's rows: each load's rate as a share of the bare route's (the mean of the bare
 * route before and after them), its p50 and p95; the Flow at 20 customers against 1 s; the
 * reminder run's time and its sends counted.
 * @param {Record<string, any>} r
 * @param {{ row: (name: string, result: string, budget: string, met: boolean | null, ceiling?: string) => void,
 *   f0: (n: number | null | undefined) => string, f1: (n: number | null | undefined) => string }} format
 */
export function agendaTable(r, { row, f0, f1 }) {
  const bareRate = (r.bare.rate + r.bareAfter.rate) / 2;
  const bareCpu = (r.bare.cpuMsPerRequest + r.bareAfter.cpuMsPerRequest) / 2;
  const ok = (/** @type {any} */ m) => Object.keys(m.statuses).every((s) => s === "200");
  row(
    "10. agenda: bare route (same run)",
    `${f0(bareRate)} req/s (${f0(r.bare.rate)} before, ${f0(r.bareAfter.rate)} after)`,
    "(the ceiling)",
    null,
    `${bareCpu.toFixed(2)} ms CPU, load ${f1(r.bare.loadAverage)}-${f1(r.bareAfter.loadAverage)}`,
  );
  /**
   * @param {string} name @param {any} m @param {number} share @param {boolean} clean
   * @param {string} [beside]
   */
  const shareRow = (name, m, share, clean, beside = "") =>
    row(
      name,
      `${f0(m.rate)} req/s, p50 ${f1(m.latency.p50)} ms, p95 ${f1(m.latency.p95)} ms`,
      `>= ${f0(100 * share)}% of bare (${f0(share * bareRate)})`,
      m.rate >= share * bareRate && clean,
      `${f0((100 * m.rate) / bareRate)}% of bare, ${m.cpuMsPerRequest.toFixed(2)} ms CPU (${f1(m.cpuMsPerRequest / bareCpu)}x bare)${beside}`,
    );
  shareRow(
    `    availability, a week (${r.bookingsInWeek} bookings)`,
    r.availabilityWeek,
    AGENDA_BUDGETS.availabilityWeek,
    ok(r.availabilityWeek),
  );
  shareRow(
    `    availability, a month (${r.bookingsInMonth} bookings)`,
    r.availabilityMonth,
    AGENDA_BUDGETS.availabilityMonth,
    ok(r.availabilityMonth),
  );
  shareRow(
    "    booking, each of a free slot",
    r.booking,
    AGENDA_BUDGETS.booking,
    r.booking.failed === 0,
    `; ${r.booking.ok} booked, ${r.booking.conflicts} refused 409, ${r.booking.limited} 429${r.booking.failed > r.booking.conflicts ? `, statuses ${JSON.stringify(r.booking.statuses)}` : ""}`,
  );
  shareRow(`    Flow: a day's slots (${r.flowSlots})`, r.flow, AGENDA_BUDGETS.flow, ok(r.flow));
  const fc = r.flowCustomers;
  row(
    `    Flow: ${FLOW_CUSTOMERS} customers at once`,
    `p95 ${f1(fc.latency.p95)} ms (p50 ${f1(fc.latency.p50)})`,
    `p95 < ${f0(AGENDA_BUDGETS.flowP95Ms)} ms`,
    fc.latency.p95 !== null && fc.latency.p95 < AGENDA_BUDGETS.flowP95Ms && ok(fc),
    `${f0(fc.rate)} req/s, ${f0((100 * fc.rate) / bareRate)}% of bare`,
  );
  const rem = r.reminders;
  row(
    `    reminder run, ${rem.reminders} bookings`,
    `${f0(rem.totalMs)} ms, ${f1(rem.perReminderMs)} ms a reminder`,
    `<= ${AGENDA_BUDGETS.reminderRunOfPace}x Meta's pace (${f0(AGENDA_BUDGETS.reminderRunOfPace * rem.paceFloorMs)} ms), all sent once`,
    rem.totalMs !== null &&
      rem.totalMs <= AGENDA_BUDGETS.reminderRunOfPace * rem.paceFloorMs &&
      rem.sends === rem.reminders &&
      rem.seeded === rem.reminders &&
      rem.states.sent === rem.reminders,
    `${f1(rem.totalMs / rem.paceFloorMs)}x the pace; ${rem.sends} at the fake to ${rem.recipients} customers, store ${JSON.stringify(rem.states)}, ${rem.cpuMsPerReminder.toFixed(1)} ms CPU each, load ${f1(rem.loadAverage)}`,
  );
}
