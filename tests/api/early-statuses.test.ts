import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { organizationStore } from "../../worker/stores/registry";
import {
  delivery,
  inboundMessage,
  messageEcho,
  statusUpdate,
  wamid,
} from "../fakes/whatsapp-payloads.mjs";
import { api, answer } from "../support/api";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { orgFirst, orgSql } from "../support/org-data";
import {
  chooseMessageId,
  customerPhone,
  deliver,
  failNext,
  heldRequests,
  releaseHeld,
} from "../support/webhooks";
import { makeDue, workOf } from "../support/scheduled-work";

/**
 * Meta's answer to a send and the statuses of the message it sent race: under load a status
 * reaches the webhook before the send has recorded the message's wamid. Such a status is held
 * and applied when the wamid is recorded (durable-objects/whatsapp/statuses.ts).
 */
async function conversationWithCustomer() {
  const owner = await createOwner();
  const orgId = owner.organization.id as string;
  const { phoneNumberId } = await connectWhatsapp(orgId);
  const from = customerPhone();
  await deliver(delivery(inboundMessage({ phoneNumberId, from })));
  const conversation = await orgFirst<{ id: string }>(
    orgId,
    "SELECT id FROM conversations WHERE phone_number = ?",
    from,
  );
  return { owner, orgId, phoneNumberId, from, conversationId: conversation!.id };
}

const heldCount = async (orgId: string, id: string) =>
  (await orgFirst<{ n: number }>(
    orgId,
    "SELECT count(*) AS n FROM held_statuses WHERE wamid = ?",
    id,
  ))!.n;

/**
 * A person sends `text`; the fake Meta takes it and holds its answer (the message id it will
 * give, `id`) until `releaseHeld("graph", id)`. Answers the send's pending answer once Meta has
 * the request (in an object: an async function returning the promise itself would wait for it).
 */
async function sendHeldByMeta(setup: Setup, text: string, id: string) {
  await chooseMessageId(text, id);
  await failNext("graph", { contains: text, hold: id });
  const sending = answer(
    api(setup.owner.token).conversations.messages.$post({
      json: { conversation_id: setup.conversationId, content: text },
    }),
  );
  // Asked of the fake itself: the whole request log is large late in a full run, and reading it
  // again and again could outlast the send's own 15 s time-out.
  await vi.waitFor(async () => expect(await heldRequests("graph", id)).toBe(1), {
    timeout: 10_000,
  });
  return { sending };
}

type Setup = Awaited<ReturnType<typeof conversationWithCustomer>>;

/** Delivers Meta's statuses of message `id`: `status(s, seconds)`. */
const statusesOf =
  ({ phoneNumberId, from }: Setup, id: string) =>
  (status: string, seconds: number) =>
    deliver(
      delivery(
        statusUpdate({ phoneNumberId, id, recipientId: from, status, timestamp: String(seconds) }),
      ),
    );

/**
 * A send whose `delivered` came first and whose applying then fails: storing the status's
 * pricing is refused (as a failing disk or a bug would) until `mend()`; with `holdingRefused`,
 * so is every write to `held_statuses` (an outage fails both). Answers the send's answer, the
 * status time used, and `mend`.
 */
async function sentWithPricingRefused(
  setup: Setup,
  text: string,
  id: string,
  { holdingRefused = false } = {},
) {
  const { sending } = await sendHeldByMeta(setup, `${text} ${crypto.randomUUID()}`, id);
  const now = Math.floor(Date.now() / 1000);
  expect((await statusesOf(setup, id)("delivered", now + 1)).status).toBe(200);
  const refuse = (trigger: string, event: string) =>
    orgSql(
      setup.orgId,
      `CREATE TRIGGER ${trigger} BEFORE ${event}
       BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );
  await refuse("refuse_pricing", `UPDATE OF billable ON messages WHEN NEW.wamid = '${id}'`);
  if (holdingRefused) {
    await refuse("refuse_holding_insert", "INSERT ON held_statuses");
    await refuse("refuse_holding_delete", "DELETE ON held_statuses");
  }
  await releaseHeld("graph", id);
  const mend = async () => {
    await orgSql(setup.orgId, "DROP TRIGGER refuse_pricing");
    if (holdingRefused) {
      await orgSql(setup.orgId, "DROP TRIGGER refuse_holding_insert");
      await orgSql(setup.orgId, "DROP TRIGGER refuse_holding_delete");
    }
  };
  return { sent: await sending, now, mend };
}

describe("a status that arrives before the send is answered", () => {
  it("is held, then applied once the send records the message's wamid", async () => {
    const setup = await conversationWithCustomer();
    const { orgId } = setup;
    const id = wamid();
    // Meta has the send and has not answered it yet.
    const { sending } = await sendHeldByMeta(
      setup,
      `Tu pedido sale hoy ${crypto.randomUUID()}`,
      id,
    );
    const status = statusesOf(setup, id);
    const now = Math.floor(Date.now() / 1000);
    // Out of order too, as Meta may deliver them.
    expect((await status("read", now + 2)).status).toBe(200);
    expect((await status("delivered", now + 1)).status).toBe(200);
    expect(await heldCount(orgId, id)).toBe(2);

    await releaseHeld("graph", id);
    const { status: code, body } = await sending;
    expect(code).toBe(201);
    expect(body.data).toMatchObject({ status: "read" });
    const stored = await orgFirst<{ status: string; wamid: string; billable: number }>(
      orgId,
      "SELECT status, wamid, billable FROM messages WHERE id = ?",
      body.data.id,
    );
    // The statuses' pricing too, as if they had come after.
    expect(stored).toEqual({ status: "read", wamid: id, billable: 1 });
    expect(await heldCount(orgId, id)).toBe(0);

    // Applied once: a repeat changes nothing and holds nothing.
    expect((await status("delivered", now + 1)).status).toBe(200);
    expect(await heldCount(orgId, id)).toBe(0);
  });

  it.each([
    ["", false],
    [" and writing down what is held", true],
  ])(
    "stays held when applying it%s fails: the send still answers, and the message's next status brings it in",
    async (_what, holdingRefused) => {
      const setup = await conversationWithCustomer();
      const { orgId } = setup;
      const id = wamid();
      const { sent, now, mend } = await sentWithPricingRefused(setup, "Va en camino", id, {
        holdingRefused,
      });
      expect(sent.status).toBe(201);
      expect(sent.body.data).toMatchObject({ status: "sent" });
      expect(await heldCount(orgId, id)).toBe(1);

      await mend();
      expect((await statusesOf(setup, id)("read", now + 2)).status).toBe(200);
      expect(
        await orgFirst(orgId, "SELECT status, billable FROM messages WHERE wamid = ?", id),
      ).toEqual({ status: "read", billable: 1 });
      expect(await heldCount(orgId, id)).toBe(0);
    },
  );

  it("is applied by the store's job when no status comes after it", async () => {
    const setup = await conversationWithCustomer();
    const { orgId } = setup;
    const id = wamid();
    const { sent, mend } = await sentWithPricingRefused(setup, "Confirmado", id);
    expect(sent.body.data).toMatchObject({ status: "sent" });
    await mend();

    // The send asked its store to try again; run now, the job applies it and ends.
    const store = await organizationStore(env, orgId);
    await vi.waitFor(async () => expect(await workOf(store, "job:held_statuses")).toBeDefined());
    await makeDue(store, "job:held_statuses");
    await runDurableObjectAlarm(store);
    expect(
      await orgFirst(orgId, "SELECT status, billable FROM messages WHERE wamid = ?", id),
    ).toEqual({ status: "delivered", billable: 1 });
    expect(await heldCount(orgId, id)).toBe(0);
    expect(await workOf(store, "job:held_statuses")).toBeUndefined();
  });

  it("failing again never fails the delivery of the message's next status, and keeps when it first came", async () => {
    const setup = await conversationWithCustomer();
    const { orgId, phoneNumberId, from } = setup;
    const id = wamid();
    const { sent, now } = await sentWithPricingRefused(setup, "Mañana a las 10", id);
    expect(sent.status).toBe(201);
    const firstHeld = await orgFirst(
      orgId,
      "SELECT received_at FROM held_statuses WHERE wamid = ?",
      id,
    );

    // `read` (no pricing: it applies) brings the held `delivered` in, which fails again.
    const read = statusUpdate({
      phoneNumberId,
      id,
      recipientId: from,
      status: "read",
      timestamp: String(now + 2),
      pricing: null,
    });
    expect((await deliver(delivery(read))).status).toBe(200);
    expect(await orgFirst(orgId, "SELECT status FROM messages WHERE wamid = ?", id)).toEqual({
      status: "read",
    });
    expect(
      await orgFirst(orgId, "SELECT received_at FROM held_statuses WHERE wamid = ?", id),
    ).toEqual(firstHeld);
  });

  it("lets a person's message take the thread from Meta's AI even when a status came first", async () => {
    const setup = await conversationWithCustomer();
    const { orgId, phoneNumberId, from, conversationId } = setup;
    await orgSql(
      orgId,
      "UPDATE conversations SET controlled_by = 'meta_ai' WHERE id = ?",
      conversationId,
    );
    const id = wamid();
    const { sending } = await sendHeldByMeta(setup, `Te atiendo yo ${crypto.randomUUID()}`, id);
    await deliver(
      delivery(statusUpdate({ phoneNumberId, id, recipientId: from, status: "delivered" })),
    );
    await releaseHeld("graph", id);
    expect((await sending).body.data).toMatchObject({ status: "delivered" });
    expect(
      await orgFirst(orgId, "SELECT controlled_by FROM conversations WHERE id = ?", conversationId),
    ).toEqual({ controlled_by: "app" });
  });

  it("is held for an echo from the WhatsApp Business app that comes after it", async () => {
    const { orgId, phoneNumberId, from } = await conversationWithCustomer();
    const id = wamid();
    await deliver(
      delivery(statusUpdate({ phoneNumberId, id, recipientId: from, status: "delivered" })),
    );
    expect(await heldCount(orgId, id)).toBe(1);

    await deliver(delivery(messageEcho({ phoneNumberId, to: from, id, text: "Ya te lo mando" })));
    const echo = await orgFirst(orgId, "SELECT status, content FROM messages WHERE wamid = ?", id);
    expect(echo).toEqual({ status: "delivered", content: "Ya te lo mando" });
    expect(await heldCount(orgId, id)).toBe(0);
  });

  it("stays with its organization: another organization's message of the same wamid is not touched", async () => {
    const first = await conversationWithCustomer();
    const second = await conversationWithCustomer();
    const id = wamid();
    await deliver(
      delivery(
        statusUpdate({
          phoneNumberId: first.phoneNumberId,
          id,
          recipientId: first.from,
          status: "read",
        }),
      ),
    );
    await deliver(
      delivery(messageEcho({ phoneNumberId: second.phoneNumberId, to: second.from, id })),
    );
    expect(await orgFirst(second.orgId, "SELECT status FROM messages WHERE wamid = ?", id)).toEqual(
      { status: "sent" },
    );
    expect(await heldCount(first.orgId, id)).toBe(1);
  });
});
