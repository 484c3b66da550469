// Marketing consent, which no send may skip (contract section 17): Meta's user_preferences,
// 131050 and 131049 on a failed status, the customer's opt-out words, and who a marketing send
// leaves out (decision 0058).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  delivery,
  inboundMessage,
  statusUpdate,
  userPreferences,
} from "../fakes/whatsapp-payloads.mjs";
import { GRAPH_VERSION } from "../fakes/graph-server.mjs";
import { api, answer } from "../support/api";
import {
  MARKETING,
  marketingOrganization,
  seedCustomers,
  setQuietHours,
} from "../support/marketing";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner } from "../support/factories";
import { orgFirst, orgSqlBatch } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import { connect } from "../support/sockets";
import {
  customerBsuid,
  customerPhone,
  deliver,
  failNext,
  graphRequests,
  isoOfSeconds,
  secondsAgo,
} from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";
import {
  consentWord,
  isUsNumber,
  marketingAllowed,
  marketingExclusion,
} from "../../durable-objects/whatsapp/consent";

type Row = Record<string, any>;

const DAY_MS = 24 * 3600 * 1000;

/** An organization with a connected number; with `answering`, an active AI agent answers it. */
async function setup({ answering = false } = {}) {
  const owner = await createOwner();
  const agent = answering ? await createAgent(owner, { name: "Sofía" }) : null;
  const connection = await connectWhatsapp(owner.organization.id, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
    businessAccountId: `waba-${crypto.randomUUID().slice(0, 8)}`,
    defaultAgentId: agent?.id,
  });
  return {
    owner,
    orgId: owner.organization.id as string,
    phoneNumberId: connection.phoneNumberId,
    hub: await organizationStore(env, owner.organization.id),
  };
}

const conversationOf = (orgId: string, phone: string) =>
  orgFirst<Row>(orgId, "SELECT * FROM conversations WHERE phone_number = ?", phone);

/** What the API answers about a conversation's consent. */
async function consentOf(token: string, id: string) {
  const res = await answer(api(token).conversations[":id"].$get({ param: { id } }));
  expect(res.status).toBe(200);
  const { marketing_opt_out, marketing_limited_until } = res.body.data;
  return { marketing_opt_out, marketing_limited_until };
}

describe("user_preferences", () => {
  it("stop opts the customer out, resume back in, each said to the consoles", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    const userId = customerBsuid();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, userId, text: "Hola" })));
    const { id } = (await conversationOf(orgId, from))!;
    expect(await consentOf(owner.token, id)).toEqual({
      marketing_opt_out: null,
      marketing_limited_until: null,
    });

    const inbox = await connect(owner.token);
    const stopAt = secondsAgo(60);
    const stop = userPreferences({ phoneNumberId, from, userId, timestamp: stopAt });
    expect((await deliver(delivery(stop))).status).toBe(200);
    const optedOut = { at: isoOfSeconds(stopAt), source: "meta" };
    expect((await consentOf(owner.token, id)).marketing_opt_out).toEqual(optedOut);
    const update = await inbox.receive((e) => e.type === "conversation_update");
    expect(update.data.conversation).toMatchObject({ id, marketing_opt_out: optedOut });

    const resume = userPreferences({
      phoneNumberId,
      userId,
      value: "resume",
      timestamp: secondsAgo(30),
    });
    await deliver(delivery(resume));
    expect((await consentOf(owner.token, id)).marketing_opt_out).toBeNull();
    await inbox.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.marketing_opt_out === null,
    );
    inbox.socket.close();
  });

  it("a repeated or older preference delivered late changes nothing", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const { id } = (await conversationOf(orgId, from))!;
    const resumeAt = secondsAgo(30);
    await deliver(
      delivery(userPreferences({ phoneNumberId, from, value: "stop", timestamp: secondsAgo(90) })),
    );
    await deliver(
      delivery(userPreferences({ phoneNumberId, from, value: "resume", timestamp: resumeAt })),
    );
    // Meta repeats the first, then delivers a stop older than the resume.
    await deliver(
      delivery(userPreferences({ phoneNumberId, from, value: "stop", timestamp: secondsAgo(90) })),
    );
    await deliver(
      delivery(userPreferences({ phoneNumberId, from, value: "stop", timestamp: secondsAgo(60) })),
    );
    expect((await consentOf(owner.token, id)).marketing_opt_out).toBeNull();
    expect((await conversationOf(orgId, from))!.marketing_consent_at).toBe(isoOfSeconds(resumeAt));
    // The latest of one delivery wins too, whatever its order.
    const [older, newer] = [secondsAgo(20), secondsAgo(10)];
    const both = delivery(
      userPreferences({ phoneNumberId, from, value: "stop", timestamp: newer }),
      userPreferences({ phoneNumberId, from, value: "resume", timestamp: older }),
    );
    await deliver(both);
    expect((await consentOf(owner.token, id)).marketing_opt_out).toEqual({
      at: isoOfSeconds(newer),
      source: "meta",
    });
  });

  it("leaves other categories, bad values and items naming nobody alone", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const { id } = (await conversationOf(orgId, from))!;
    const odd = [
      userPreferences({ phoneNumberId, from, category: "service_messages" }),
      userPreferences({ phoneNumberId, from, value: "maybe" as "stop" }),
      userPreferences({ phoneNumberId }),
    ];
    for (const change of odd) expect((await deliver(delivery(change))).status).toBe(200);
    expect((await consentOf(owner.token, id)).marketing_opt_out).toBeNull();
    expect(
      await orgFirst(
        orgId,
        "SELECT count(*) AS n FROM marketing_consents WHERE organization_id = ?",
        orgId,
      ),
    ).toEqual({ n: 0 });
  });

  it("a stop for a customer not known yet holds when they write later", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const [byPhone, userId] = [customerPhone(), customerBsuid()];
    const stopAt = secondsAgo(600);
    await deliver(delivery(userPreferences({ phoneNumberId, from: byPhone, timestamp: stopAt })));
    await deliver(delivery(userPreferences({ phoneNumberId, userId, timestamp: stopAt })));
    // Nothing to show yet: a preference alone is no conversation.
    expect(await conversationOf(orgId, byPhone)).toBeNull();

    const inbox = await connect(owner.token);
    await deliver(delivery(inboundMessage({ phoneNumberId, from: byPhone, text: "Hola" })));
    const first = (await conversationOf(orgId, byPhone))!;
    const optedOut = { at: isoOfSeconds(stopAt), source: "meta" };
    expect((await consentOf(owner.token, first.id)).marketing_opt_out).toEqual(optedOut);
    const arrived = await inbox.receive((e) => e.type === "new_message");
    expect(arrived.data.conversation.marketing_opt_out).toEqual(optedOut);
    inbox.socket.close();

    // Named by BSUID only: a customer who writes with that BSUID (and a phone) is opted out.
    const other = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from: other, userId, text: "Hola" })));
    const second = (await conversationOf(orgId, other))!;
    expect((await consentOf(owner.token, second.id)).marketing_opt_out).toEqual(optedOut);
  });

  it("holds for a known conversation that learns the customer's BSUID later", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const [from, userId] = [customerPhone(), customerBsuid()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const { id } = (await conversationOf(orgId, from))!;
    const stopAt = secondsAgo(60);
    await deliver(delivery(userPreferences({ phoneNumberId, userId, timestamp: stopAt })));
    expect((await consentOf(owner.token, id)).marketing_opt_out).toBeNull();

    await deliver(delivery(inboundMessage({ phoneNumberId, from, userId, text: "Otra vez" })));
    expect((await consentOf(owner.token, id)).marketing_opt_out).toEqual({
      at: isoOfSeconds(stopAt),
      source: "meta",
    });
  });
});

describe("opt-out words", () => {
  it("BAJA in its variants opts out; a sentence with STOP does not; ALTA opts back in", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    for (const text of ["baja", "Baja.", "NO MAS", "no más", " ¡STOP! ", "Desuscribir"]) {
      const from = customerPhone();
      const timestamp = secondsAgo(30);
      await deliver(delivery(inboundMessage({ phoneNumberId, from, text, timestamp })));
      const conversation = (await conversationOf(orgId, from))!;
      expect((await consentOf(owner.token, conversation.id)).marketing_opt_out, text).toEqual({
        at: isoOfSeconds(timestamp),
        source: "keyword",
      });
      // The message is stored as any other.
      expect(conversation).toMatchObject({ last_message_preview: text, unread_count: 1 });
    }

    const from = customerPhone();
    const sentence = "Por favor no pares, ¿el stop de la oferta sigue?";
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: sentence })));
    const kept = (await conversationOf(orgId, from))!;
    expect((await consentOf(owner.token, kept.id)).marketing_opt_out).toBeNull();

    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "BAJA", timestamp: secondsAgo(20) })),
    );
    expect((await consentOf(owner.token, kept.id)).marketing_opt_out).not.toBeNull();
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "Alta", timestamp: secondsAgo(10) })),
    );
    expect((await consentOf(owner.token, kept.id)).marketing_opt_out).toBeNull();
  });

  it("counts in a quick-reply button, an interactive reply and among emoji", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const sent: Record<string, unknown>[] = [
      { type: "text", text: "STOP 🙏" },
      { type: "text", text: "¡Baja! 👋🏽" },
      { type: "button", part: { text: "Baja", payload: "promo-42" } },
      { type: "button", part: { text: "No quiero más ofertas", payload: "STOP" } },
      {
        type: "interactive",
        part: { type: "button_reply", button_reply: { id: "b1", title: "BAJA 🚫" } },
      },
      {
        type: "interactive",
        part: { type: "list_reply", list_reply: { id: "desuscribir", title: "Darme de baja" } },
      },
    ];
    for (const message of sent) {
      const from = customerPhone();
      const timestamp = secondsAgo(30);
      await deliver(delivery(inboundMessage({ phoneNumberId, from, timestamp, ...message })));
      const conversation = (await conversationOf(orgId, from))!;
      expect(
        (await consentOf(owner.token, conversation.id)).marketing_opt_out,
        JSON.stringify(message),
      ).toEqual({ at: isoOfSeconds(timestamp), source: "keyword" });
    }
    // A button that says something else opts nobody out.
    const from = customerPhone();
    const part = { text: "Quiero la oferta", payload: "promo-42" };
    await deliver(delivery(inboundMessage({ phoneNumberId, from, type: "button", part })));
    const kept = (await conversationOf(orgId, from))!;
    expect((await consentOf(owner.token, kept.id)).marketing_opt_out).toBeNull();
  });

  it("the AI does not answer an opt-out word, and still answers a question", async () => {
    const { orgId, phoneNumberId, hub } = await setup({ answering: true });
    const from = customerPhone();
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "BAJA", timestamp: secondsAgo(20) })),
    );
    await runDueReplies(hub);
    const conversation = (await conversationOf(orgId, from))!;
    expect(await botMessages(orgId, conversation.id)).toEqual([]);

    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from,
          text: "¿Qué precio tiene?",
          timestamp: secondsAgo(5),
        }),
      ),
    );
    await runDueReplies(hub);
    expect(await botMessages(orgId, conversation.id)).toHaveLength(1);
  });
});

describe("a marketing template Meta refused", () => {
  /** A customer who wrote and got an answer: the answer's wamid, for its statuses. */
  async function answered() {
    const context = await setup();
    const { owner, orgId, phoneNumberId } = context;
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = (await conversationOf(orgId, from))!;
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "¡Oferta de verano!" },
      }),
    );
    expect(sent.status).toBe(201);
    const { wamid } = (await orgFirst<Row>(
      orgId,
      "SELECT wamid FROM messages WHERE id = ?",
      sent.body.data.id,
    ))!;
    const failWith = (code: number, timestamp: string) =>
      deliver(
        delivery(
          statusUpdate({
            phoneNumberId,
            id: wamid,
            recipientId: from,
            status: "failed",
            timestamp,
            errors: [{ code, title: "Marketing message not delivered" }],
          }),
        ),
      );
    const stored = () =>
      orgFirst<Row>(orgId, "SELECT status, error, error_code FROM messages WHERE wamid = ?", wamid);
    return { ...context, conversation, failWith, stored };
  }

  it("131050 opts the customer out, said in Spanish", async () => {
    const { owner, conversation, failWith, stored } = await answered();
    const at = secondsAgo(5);
    expect((await failWith(131050, at)).status).toBe(200);
    expect(await stored()).toMatchObject({
      status: "failed",
      error_code: "131050",
      error: expect.stringContaining("no recibir mensajes de marketing"),
    });
    expect((await consentOf(owner.token, conversation.id)).marketing_opt_out).toEqual({
      at: isoOfSeconds(at),
      source: "failed_131050",
    });
  });

  it("131049 limits the customer for 24 h, is not retried, and is Meta's limit in Spanish", async () => {
    const { owner, phoneNumberId, conversation, failWith, stored } = await answered();
    const sends = (await graphRequests(`/${phoneNumberId}/messages`)).length;
    const inbox = await connect(owner.token);
    const at = secondsAgo(5);
    await failWith(131049, at);
    const until = new Date(Date.parse(isoOfSeconds(at)) + DAY_MS).toISOString();
    expect(await consentOf(owner.token, conversation.id)).toEqual({
      marketing_opt_out: null,
      marketing_limited_until: until,
    });
    const update = await inbox.receive((e) => e.type === "conversation_update");
    expect(update.data.conversation.marketing_limited_until).toBe(until);
    inbox.socket.close();
    const failed = (await stored())!;
    expect(failed).toMatchObject({ status: "failed", error_code: "131049" });
    expect(failed.error).toContain("límite de promociones");
    expect(failed.error).toContain("no un fallo");
    // Meta repeats it, then an older one arrives: the limit stays, and nothing is sent again.
    await failWith(131049, at);
    await failWith(131049, secondsAgo(3600));
    expect((await consentOf(owner.token, conversation.id)).marketing_limited_until).toBe(until);
    expect(await graphRequests(`/${phoneNumberId}/messages`)).toHaveLength(sends);
  });

  it("a message Meta refused with 131050 or 131049 is never sent again by Reintentar", async () => {
    for (const [code, words] of [
      [131050, "no recibir promociones"],
      [131049, "durante 24 horas"],
    ] as const) {
      const { owner, phoneNumberId, conversation, failWith, stored } = await answered();
      await failWith(code, secondsAgo(5));
      const { id } = (await orgFirst<Row>(
        conversation.organization_id,
        "SELECT id FROM messages WHERE conversation_id = ? AND direction = 'outbound'",
        conversation.id,
      ))!;
      const sends = (await graphRequests(`/${phoneNumberId}/messages`)).length;
      const retried = await answer(
        api(owner.token).conversations[":id"].messages[":messageId"].retry.$post({
          param: { id: conversation.id, messageId: id },
        }),
      );
      expect(retried.status).toBe(409);
      expect(JSON.stringify(retried.body)).toContain(words);
      expect(await stored()).toMatchObject({ status: "failed", error_code: String(code) });
      expect(await graphRequests(`/${phoneNumberId}/messages`)).toHaveLength(sends);
    }
  });
});

describe("Reintentar on a marketing message", () => {
  it("checks quiet hours and consent as a new send would, then sends it", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    const [id] = await seedCustomers(s, [{ phone }]);
    // A person's marketing template that Meta failed for a reason of its own.
    await failNext("graph", {
      path: `/${GRAPH_VERSION}/${s.phoneNumberId}/messages`,
      contains: phone,
      status: 400,
      error: { message: "(#131000) Something went wrong", code: 131000 },
    });
    const sent = await answer(
      api(s.owner.token).conversations.messages.$post({
        json: { conversation_id: id!, template: MARKETING },
      }),
    );
    expect(sent.body.data).toMatchObject({ status: "failed", error_code: "131000" });
    const retry = () =>
      answer(
        api(s.owner.token).conversations[":id"].messages[":messageId"].retry.$post({
          param: { id: id!, messageId: sent.body.data.id },
        }),
      );
    const sends = async () => (await graphRequests(`/${s.phoneNumberId}/messages`)).length;
    const before = await sends();

    const optOut = (at: string | null) =>
      orgSqlBatch(s.orgId, [
        {
          sql: "UPDATE conversations SET marketing_opted_out_at = ? WHERE id = ?",
          params: [at, id],
        },
      ]);
    await optOut(new Date().toISOString());
    let refused = await retry();
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("no recibir promociones");
    await optOut(null);

    const hour = new Date().getUTCHours();
    const at = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    await setQuietHours(s.owner, at(hour - 1), at(hour + 1), "UTC");
    refused = await retry();
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "quiet_hours" });
    expect(await sends()).toBe(before);

    await setQuietHours(s.owner, "00:00", "00:00");
    const retried = await retry();
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: sent.body.data.id, status: "sent" });
    expect(await sends()).toBe(before + 1);
  });
});

describe("two organizations", () => {
  it("one's opt-out never touches the other's customer with the same phone", async () => {
    const a = await setup();
    const b = await setup();
    const shared = customerPhone();
    for (const { phoneNumberId } of [a, b]) {
      await deliver(delivery(inboundMessage({ phoneNumberId, from: shared, text: "Hola" })));
    }
    await deliver(delivery(userPreferences({ phoneNumberId: a.phoneNumberId, from: shared })));
    await deliver(
      delivery(inboundMessage({ phoneNumberId: a.phoneNumberId, from: shared, text: "BAJA" })),
    );
    const inA = (await conversationOf(a.orgId, shared))!;
    const inB = (await conversationOf(b.orgId, shared))!;
    expect((await consentOf(a.owner.token, inA.id)).marketing_opt_out).not.toBeNull();
    expect((await consentOf(b.owner.token, inB.id)).marketing_opt_out).toBeNull();
    expect(
      await orgFirst(
        b.orgId,
        "SELECT count(*) AS n FROM marketing_consents WHERE organization_id = ?",
        b.orgId,
      ),
    ).toEqual({ n: 0 });
    // B's customer, writing again, stays in.
    await deliver(
      delivery(inboundMessage({ phoneNumberId: b.phoneNumberId, from: shared, text: "Hola" })),
    );
    expect((await consentOf(b.owner.token, inB.id)).marketing_opt_out).toBeNull();
  });
});

describe("who a marketing send leaves out", () => {
  const now = Date.parse("2026-12-01T12:00:00.000Z");
  const ordinary = {
    phoneNumber: "34611222333",
    waUserId: "ES.13491208655302741918",
    marketingOptedOutAt: null,
    marketingLimitedUntil: null,
  };

  it("opted-out, limited, US and unserved customers; ordinary ones may receive it", () => {
    expect(marketingExclusion(ordinary, now)).toBeNull();
    expect(marketingAllowed(ordinary, now)).toBe(true);
    const optedOut = { ...ordinary, marketingOptedOutAt: "2026-11-01T00:00:00.000Z" };
    expect(marketingExclusion(optedOut, now)).toBe("opted_out");
    expect(marketingAllowed(optedOut, now)).toBe(false);
    const limited = { ...ordinary, marketingLimitedUntil: "2026-12-01T18:00:00.000Z" };
    expect(marketingExclusion(limited, now)).toBe("limited");
    const limitOver = { ...ordinary, marketingLimitedUntil: "2026-12-01T11:00:00.000Z" };
    expect(marketingExclusion(limitOver, now)).toBeNull();
    // Opted out wins over a limit: the reason the preview counts.
    expect(marketingExclusion({ ...limited, marketingOptedOutAt: "2026-11-01" }, now)).toBe(
      "opted_out",
    );
    for (const phoneNumber of ["12125550100", "13105550100", "17875550100"]) {
      expect(marketingExclusion({ ...ordinary, phoneNumber }, now), phoneNumber).toBe(
        "unreachable",
      );
    }
    // +1 that is not the US: Canada, the Dominican Republic.
    for (const phoneNumber of ["14165550100", "18095550100"]) {
      expect(marketingAllowed({ ...ordinary, phoneNumber }, now), phoneNumber).toBe(true);
    }
    expect(marketingExclusion({ ...ordinary, phoneNumber: "584125550100" }, now)).toBe(
      "unreachable",
    );
    // A customer known only by BSUID: the country Meta writes in front of it.
    const withheld = { ...ordinary, phoneNumber: null };
    expect(marketingAllowed(withheld, now)).toBe(true);
    expect(marketingExclusion({ ...withheld, waUserId: "US.1349120865" }, now)).toBe("unreachable");
  });

  it("reads US numbers and the opt-out words as written", () => {
    expect(isUsNumber("12125550100")).toBe(true);
    expect(isUsNumber("14165550100")).toBe(false);
    expect(isUsNumber("34611222333")).toBe(false);
    expect(isUsNumber("1212555")).toBe(false);
    for (const word of [
      "BAJA",
      "baja",
      "Baja.",
      "NO MAS",
      "no más",
      "No  Más!!",
      "STOP",
      "Parar",
      "cancelar",
      "DESUSCRIBIR",
      "STOP 🙏",
      "🚫 baja 👋🏽",
    ]) {
      expect(consentWord(word), word).toBe("out");
    }
    for (const word of ["ALTA", "start", "Start."]) expect(consentWord(word), word).toBe("in");
    for (const text of ["stop spam please", "quiero darme de baja", "no", "más", "", "bajas"]) {
      expect(consentWord(text), text).toBeNull();
    }
  });
});
