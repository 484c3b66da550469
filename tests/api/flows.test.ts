// The booking Flow (contract section 18, decisions 0095-0098): the endpoint's encryption and
// error codes (421, 427, 401), ping and error notifications, the screens over live slots with
// refusals in Spanish, the booking made through the bookings service (and its race with a
// person's), the send route and its fallback list, the customer's completion shown once, the
// registration on connect with its failure remembered, and two organizations that never meet.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../worker/flows/crypto";
import { delivery, flowCompletion, listReply, wamid } from "../fakes/whatsapp-payloads.mjs";
import { api, answer } from "../support/api";
import { book, createService } from "../support/bookings";
import {
  exchange,
  flowCall,
  flowOrganization,
  flowsPublicKey,
  lastInteractive,
  postFlowBody,
  sendBookingFlow,
  sentFlowToken,
  type FlowOwner,
} from "../support/flows";
import { orgSql } from "../support/org-data";
import { deliver, graphRequests } from "../support/webhooks";

type Row = Record<string, any>;

const bookingsOf = (orgId: string) =>
  orgSql<Row>(orgId, "SELECT * FROM bookings WHERE status != 'cancelled' ORDER BY starts_at");

/** Walks a token from INIT to the CONFIRM screen, choosing the first of everything. */
async function walkToConfirm(token: string) {
  const init = await exchange(token, "INIT");
  expect(init.status).toBe(200);
  const day = await exchange(token, "data_exchange", "SERVICE", {
    service: init.answer.data.services[0].id,
  });
  const slot = await exchange(token, "data_exchange", "DAY", { day: day.answer.data.days[0].id });
  const start = slot.answer.data.slots[0].id as string;
  const confirm = await exchange(token, "data_exchange", "SLOT", { slot: start });
  expect(confirm.answer.screen).toBe("CONFIRM");
  return start;
}

describe("the endpoint's encryption", () => {
  it("answers ping encrypted with the inverted IV, as base64 text", async () => {
    const res = await flowCall({ version: "3.0", action: "ping" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/plain");
    expect(res.text).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(res.answer).toEqual({ version: "3.0", data: { status: "active" } });
  });

  it("answers 421 to a request for another key, a tampered tag or a body that is not one", async () => {
    const other = (await crypto.subtle.generateKey(
      {
        name: "RSA-OAEP",
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: "SHA-256",
      },
      true,
      ["encrypt", "decrypt"],
    )) as CryptoKeyPair;
    const spki = (await crypto.subtle.exportKey("spki", other.publicKey)) as ArrayBuffer;
    const otherPem = `-----BEGIN PUBLIC KEY-----
${toBase64(spki)}
-----END PUBLIC KEY-----`;
    expect((await flowCall({ version: "3.0", action: "ping" }, otherPem)).status).toBe(421);

    const { encryptFlowRequest } = await import("../fakes/whatsapp-payloads.mjs");
    const request = await encryptFlowRequest(await flowsPublicKey(), {
      version: "3.0",
      action: "ping",
    });
    const data = Uint8Array.from(atob(request.body.encrypted_flow_data), (c) => c.charCodeAt(0));
    data[data.length - 1]! ^= 0x01;
    const tampered = { ...request.body, encrypted_flow_data: btoa(String.fromCharCode(...data)) };
    expect((await postFlowBody(JSON.stringify(tampered))).status).toBe(421);
    expect((await postFlowBody(JSON.stringify({ hello: "world" }))).status).toBe(421);
    expect((await postFlowBody("not json")).status).toBe(421);
  });

  it("refuses a missing or wrong signature with 401, before decrypting anything", async () => {
    const { encryptFlowRequest } = await import("../fakes/whatsapp-payloads.mjs");
    const request = await encryptFlowRequest(await flowsPublicKey(), {
      version: "3.0",
      action: "ping",
    });
    const raw = JSON.stringify(request.body);
    expect((await postFlowBody(raw, "")).status).toBe(401);
    expect((await postFlowBody(raw, `sha256=${"0".repeat(64)}`)).status).toBe(401);
  });

  it("logs and acknowledges WhatsApp's error notifications", async () => {
    const res = await flowCall({
      version: "3.0",
      action: "data_exchange",
      flow_token: "whatever",
      data: { error: "INVALID_SCREEN_TRANSITION", error_message: "bad screen" },
    });
    expect(res.status).toBe(200);
    expect(res.answer).toEqual({ version: "3.0", data: { acknowledged: true } });
  });
});

describe("the screens", () => {
  it("walk service, day, slot and confirmation over live slots, refusing in Spanish", async () => {
    const org = await flowOrganization();
    const token = await sentFlowToken(org);
    expect(token.startsWith(`${org.orgId}.`)).toBe(true);

    const init = await exchange(token, "INIT");
    expect(init.answer).toMatchObject({ version: "3.0", screen: "SERVICE" });
    expect(init.answer.data.services).toEqual([
      { id: org.service.id, title: "Limpieza dental (30 min)" },
    ]);
    const unknown = await exchange(token, "data_exchange", "SERVICE", { service: "nope" });
    expect(unknown.answer.screen).toBe("SERVICE");
    expect(unknown.answer.data.error_message).toBe(
      "Ese servicio ya no está disponible. Elige otro.",
    );

    const days = await exchange(token, "data_exchange", "SERVICE", { service: org.service.id });
    expect(days.answer.screen).toBe("DAY");
    expect(days.answer.data.service_name).toBe("Limpieza dental");
    expect(days.answer.data.days.length).toBeGreaterThan(10);
    const closed = await exchange(token, "data_exchange", "DAY", { day: "2020-01-01" });
    expect(closed.answer.screen).toBe("DAY");
    expect(closed.answer.data.error_message).toBe("Ya no quedan horas libres ese día. Elige otro.");

    const day = days.answer.data.days[1].id as string;
    const slots = await exchange(token, "data_exchange", "DAY", { day });
    expect(slots.answer.screen).toBe("SLOT");
    const [first] = slots.answer.data.slots as { id: string; title: string }[];
    expect(first!.title).toMatch(/^\d\d:\d\d$/);

    // A person books the first slot meanwhile: the customer's choice of it is refused, and the
    // screen comes back without it.
    const taken = await book(org.owner, {
      service_id: org.service.id,
      conversation_id: org.conversationId,
      start: first!.id,
      note: null,
    });
    expect(taken.status).toBe(201);
    const refused = await exchange(token, "data_exchange", "SLOT", { slot: first!.id });
    expect(refused.answer.screen).toBe("SLOT");
    expect(refused.answer.data.error_message).toBe("Esa hora ya no está libre. Elige otra.");
    expect(refused.answer.data.slots.map((s: { id: string }) => s.id)).not.toContain(first!.id);
    const second = refused.answer.data.slots[0] as { id: string };

    const confirm = await exchange(token, "data_exchange", "SLOT", { slot: second.id });
    expect(confirm.answer).toMatchObject({ screen: "CONFIRM" });
    expect(confirm.answer.data.summary).toMatch(/^Limpieza dental el \d+ de \w+ a las \d\d:\d\d$/);
    // Back to the slots: fresh, and the walk goes on from there.
    const back = await exchange(token, "BACK", "SLOT");
    expect(back.answer.screen).toBe("SLOT");
    await exchange(token, "data_exchange", "SLOT", { slot: second.id });

    const done = await exchange(token, "data_exchange", "CONFIRM", { confirm: "yes" });
    expect(done.answer.screen).toBe("SUCCESS");
    const params = done.answer.data.extension_message_response.params;
    expect(params).toMatchObject({ flow_token: token, summary: confirm.answer.data.summary });
    const booked = (await bookingsOf(org.orgId)).find((b) => b.id === params.booking_id)!;
    expect(booked).toMatchObject({
      starts_at: second.id,
      status: "confirmed",
      conversation_id: org.conversationId,
      created_by: null,
    });
    // Single use: the token books once, then is refused.
    expect((await exchange(token, "INIT")).status).toBe(427);
    expect((await exchange(token, "data_exchange", "CONFIRM", {})).status).toBe(427);
  });

  it("offers only the service a person sent it for", async () => {
    const org = await flowOrganization();
    const other = await createService(org.owner, { name: "Blanqueamiento" });
    const token = await sentFlowToken(org, { service_id: org.service.id });
    const init = await exchange(token, "INIT");
    expect(init.answer.data.services.map((s: { id: string }) => s.id)).toEqual([org.service.id]);
    const refused = await exchange(token, "data_exchange", "SERVICE", { service: other.id });
    expect(refused.answer).toMatchObject({ screen: "SERVICE" });
    expect(refused.answer.data.error_message).toBe(
      "Ese servicio ya no está disponible. Elige otro.",
    );
  });

  it("holds a paid service's slot as pending_payment", async () => {
    const org = await flowOrganization({ price: "40.00", currency: "EUR", payment: "full" });
    const token = await sentFlowToken(org, { service_id: org.service.id });
    await walkToConfirm(token);
    const done = await exchange(token, "data_exchange", "CONFIRM", { confirm: "yes" });
    expect(done.answer.screen).toBe("SUCCESS");
    const [booked] = await bookingsOf(org.orgId);
    expect(booked).toMatchObject({ status: "pending_payment" });
    expect(booked!.expires_at).not.toBeNull();
  });

  it("races a person's booking of the same slot: exactly one wins", async () => {
    const org = await flowOrganization();
    const token = await sentFlowToken(org);
    const start = await walkToConfirm(token);
    const [flow, person] = await Promise.all([
      exchange(token, "data_exchange", "CONFIRM", { confirm: "yes" }),
      book(org.owner, {
        service_id: org.service.id,
        conversation_id: org.conversationId,
        start,
        note: null,
      }),
    ]);
    const live = (await bookingsOf(org.orgId)).filter((b) => b.starts_at === start);
    expect(live).toHaveLength(1);
    if (flow.answer.screen === "SUCCESS") {
      expect(person.status).toBe(409);
      expect((person.body as { error: string }).error).toBe("slot_taken");
    } else {
      expect(person.status).toBe(201);
      expect(flow.answer).toMatchObject({ screen: "SLOT" });
      expect(flow.answer.data.error_message).toBe("Esa hora ya no está libre. Elige otra.");
    }
  });

  it("answers 427 to a token unknown, of an unknown organization, or older than 24 h", async () => {
    const org = await flowOrganization();
    expect((await exchange("not-a-token", "INIT")).status).toBe(427);
    const stranger = `${crypto.randomUUID()}.${"a".repeat(32)}`;
    const res = await exchange(stranger, "INIT");
    expect(res.status).toBe(427);
    expect(JSON.parse(res.text).error_msg).toContain("ya no es válido");
    const token = await sentFlowToken(org);
    await orgSql(
      org.orgId,
      "UPDATE flow_tokens SET created_at = ? WHERE token = ?",
      new Date(Date.now() - 25 * 3_600_000).toISOString(),
      token,
    );
    expect((await exchange(token, "INIT")).status).toBe(427);
  });
});

describe("the completion", () => {
  it("is shown in the thread once, however often it comes, and changes nothing", async () => {
    const org = await flowOrganization();
    const token = await sentFlowToken(org);
    await walkToConfirm(token);
    const done = await exchange(token, "data_exchange", "CONFIRM", { confirm: "yes" });
    const params = done.answer.data.extension_message_response.params;
    const completion = delivery(
      flowCompletion({
        phoneNumberId: org.phoneNumberId,
        from: org.customer,
        id: wamid(),
        response: params,
      }),
    );
    expect((await deliver(completion)).status).toBe(200);
    expect((await deliver(completion)).status).toBe(200);
    const shown = await orgSql<Row>(
      org.orgId,
      "SELECT content FROM messages WHERE conversation_id = ? AND type = 'interactive' AND direction = 'inbound'",
      org.conversationId,
    );
    expect(shown).toEqual([{ content: `📅 Reservó desde el formulario: ${params.summary}` }]);
    expect(await bookingsOf(org.orgId)).toHaveLength(1);
    const [row] = await orgSql<Row>(
      org.orgId,
      "SELECT completed_at, used_at FROM flow_tokens WHERE token = ?",
      token,
    );
    expect(row!.completed_at).not.toBeNull();
  });
});

describe("the fallback list", () => {
  it("sends the next ten slots when the Flow is not published; a list_reply books the one chosen, once", async () => {
    const org = await flowOrganization({}, { failFlow: true });
    const state = await answer(api(org.owner.token).whatsapp["booking-flow"].$get());
    expect(state.body).toMatchObject({
      data: { flow_id: null, published: false, error: expect.any(String) },
    });
    const res = await sendBookingFlow(org.owner, org.conversationId);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as { data: { kind: string } }).data.kind).toBe("list");
    const list = await lastInteractive(org.customer);
    expect(list.type).toBe("list");
    const rows = list.action.sections[0].rows as { id: string; title: string }[];
    expect(rows).toHaveLength(10);

    const reply = (id: string) =>
      delivery(
        listReply({
          phoneNumberId: org.phoneNumberId,
          from: org.customer,
          id: wamid(),
          replyId: id,
          title: rows[2]!.title,
        }),
      );
    const chosen = reply(rows[2]!.id);
    expect((await deliver(chosen)).status).toBe(200);
    expect((await deliver(chosen)).status).toBe(200);
    const booked = await bookingsOf(org.orgId);
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatchObject({ status: "confirmed", conversation_id: org.conversationId });
    const [offered] = await orgSql<Row>(
      org.orgId,
      "SELECT offered, used_at, booking_id FROM flow_tokens WHERE kind = 'list'",
    );
    expect(JSON.parse(offered!.offered)[2]).toBe(`${org.service.id}@${booked[0]!.starts_at}`);
    expect(offered!.booking_id).toBe(booked[0]!.id);
    // The list is used: another of its rows books nothing, and says so in the thread.
    await deliver(reply(rows[5]!.id));
    expect(await bookingsOf(org.orgId)).toHaveLength(1);
    const notes = await orgSql<Row>(
      org.orgId,
      "SELECT content FROM messages WHERE conversation_id = ? AND content LIKE '%lista que ya no es válida%'",
      org.conversationId,
    );
    expect(notes).toHaveLength(1);
  });
});

describe("registration", () => {
  it("registers the key, creates, uploads and publishes the Flow when a number is connected", async () => {
    const org = await flowOrganization();
    const [key] = await graphRequests(`/${org.phoneNumberId}/whatsapp_business_encryption`);
    expect(key.body.business_public_key).toBe(await flowsPublicKey());
    const [created] = await graphRequests(`/${org.wabaId}/flows`);
    expect(created.body).toMatchObject({
      categories: ["APPOINTMENT_BOOKING"],
      endpoint_uri: `${env.PUBLIC_APP_URL}/webhooks/flows`,
    });
    const state = await answer(api(org.owner.token).whatsapp["booking-flow"].$get());
    const flowId = (state.body as { data: { flow_id: string } }).data.flow_id;
    expect(state.body).toEqual({ data: { flow_id: flowId, published: true, error: null } });
    const [asset] = await graphRequests(`/${flowId}/assets`);
    expect(asset.body).toMatchObject({ name: "flow.json", asset_type: "FLOW_JSON" });
    expect(
      JSON.parse(new TextDecoder().decode(new Uint8Array(asset.body.file.bytes.data))),
    ).toMatchObject({
      version: "7.3",
      data_api_version: "3.0",
    });
    expect(await graphRequests(`/${flowId}/publish`)).toHaveLength(1);
    // The Flow message names it.
    await sentFlowToken(org);
    expect((await lastInteractive(org.customer)).action.parameters).toMatchObject({
      flow_message_version: "3",
      flow_id: flowId,
      flow_cta: "Reservar cita",
      flow_action: "data_exchange",
    });
  });

  it("remembers a failure without failing the connection, and an owner registers again", async () => {
    const org = await flowOrganization({}, { failFlow: true });
    const state = await answer(api(org.owner.token).whatsapp["booking-flow"].$get());
    expect(state.body).toMatchObject({ data: { published: false } });
    expect((state.body as { data: { error: string } }).data.error).toMatch(/permis|Meta/i);
    const { addMember } = await import("../support/factories");
    const agent = await addMember(org.orgId, "agent");
    expect((await answer(api(agent.token).whatsapp["booking-flow"].$post())).status).toBe(403);
    const again = await answer(api(org.owner.token).whatsapp["booking-flow"].$post());
    expect(again.body).toMatchObject({ data: { published: true, error: null } });
    await sentFlowToken(org);
  });
});

describe("two organizations", () => {
  it("never reach each other's data through tokens, sends or list replies", async () => {
    const first: FlowOwner = await flowOrganization();
    const second: FlowOwner = await flowOrganization();
    const token = await sentFlowToken(first);
    // The first's token under the second's id: the second's store holds no such token.
    const moved = `${second.orgId}.${token.split(".")[1]}`;
    expect((await exchange(moved, "INIT")).status).toBe(427);
    // The second's member cannot send in the first's conversation.
    const res = await sendBookingFlow(second.owner, first.conversationId);
    expect(res.status).toBe(404);
    const service = await sendBookingFlow(second.owner, second.conversationId, {
      service_id: first.service.id,
    });
    expect(service.status).toBe(404);
    // A list row of the first, answered on the second's number, books nothing anywhere.
    const listed = await flowOrganization({}, { failFlow: true });
    await sendBookingFlow(listed.owner, listed.conversationId);
    const row = (await lastInteractive(listed.customer)).action.sections[0].rows[0];
    await deliver(
      delivery(
        listReply({
          phoneNumberId: second.phoneNumberId,
          from: second.customer,
          id: wamid(),
          replyId: row.id,
          title: row.title,
        }),
      ),
    );
    expect(await bookingsOf(listed.orgId)).toHaveLength(0);
    expect(await bookingsOf(second.orgId)).toHaveLength(0);
  });
});
