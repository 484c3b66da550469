// Hand-built deliveries on purpose: Meta's signed webhook is the subject (issue #49, decision 0148).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { orgFirst } from "../support/org-data";
import { answer, api } from "../support/api";
import { customerBsuid, customerPhone, deliver } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";
import { askFor, scheduledWork } from "../../durable-objects/scheduler";
import { jobKey } from "../../worker/stores/contract";

/**
 * Rows the organization's store has changed since it woke: SQLite's `total_changes()`, its
 * triggers and its full-text indexes' own tables included: what the bench counts (the cursors'
 * `rowsWritten`, which Cloudflare bills, read more).
 */
async function rowsChanged(organizationId: string) {
  return runInDurableObject(
    await organizationStore(env, organizationId),
    (_, state) => state.storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n,
  );
}

/** An organization with a connected number and no agent (nothing scheduled by a delivery). */
async function connected() {
  const owner = await createOwner();
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
  return { owner, organizationId: owner.organization.id, phoneNumberId };
}

/**
 * What a customer's text message into their existing conversation writes, and nothing more:
 * - the message: 1;
 * - the conversation counting it (unread, last message, service window): 1;
 * - the inbox tally of unread conversations: none, this conversation was unread already.
 * Not written: the conversation's identifiers and name when the delivery brings the ones it has;
 * the search index, which the store's `search` job writes in batches (decision 0149: six rows a
 * message written one at a time, about two in a batch); the job's row, already asked for by the
 * first message.
 */
const ROWS_OF_A_MESSAGE_INTO_ITS_CONVERSATION = 2;

describe("rows written by a single-message delivery", () => {
  it("a message into an existing conversation writes its rows and no more", async () => {
    const { owner, organizationId, phoneNumberId } = await connected();
    const customer = { from: customerPhone(), userId: customerBsuid(), name: "Lucía" };
    const send = (text: string, id = wamid()) =>
      deliver(delivery(inboundMessage({ phoneNumberId, ...customer, id, text })));
    expect((await send("Hola, ¿tenéis cita mañana?")).status).toBe(200);

    // Another organization's delivery writes only in its own store.
    const other = await connected();
    const before = await rowsChanged(organizationId);
    const otherSent = await deliver(
      delivery(
        inboundMessage({
          phoneNumberId: other.phoneNumberId,
          from: customerPhone(),
          userId: customerBsuid(),
          text: "Hola",
        }),
      ),
    );
    expect(otherSent.status).toBe(200);
    expect(await rowsChanged(organizationId)).toBe(before);

    const id = wamid();
    expect((await send("¿Y por la tarde?", id)).status).toBe(200);
    const written = (await rowsChanged(organizationId)) - before;
    expect(written).toBeLessThanOrEqual(ROWS_OF_A_MESSAGE_INTO_ITS_CONVERSATION);

    // Everything a message does is still done: stored, counted, found by search.
    const conversation = await orgFirst<Record<string, any>>(
      organizationId,
      "SELECT * FROM conversations WHERE wa_user_id = ?",
      customer.userId,
    );
    expect(conversation).toMatchObject({
      unread_count: 2,
      last_message_preview: "¿Y por la tarde?",
      phone_number: customer.from,
      contact_name: "Lucía",
    });
    const found = await answer(
      api(owner.token).conversations.$get({ query: { search: "por la tarde" } }),
    );
    expect(found.body.data.conversations.map((c) => c.id)).toEqual([conversation!.id]);

    // Meta's redelivery of it stores nothing and writes nothing.
    const beforeAgain = await rowsChanged(organizationId);
    expect((await send("¿Y por la tarde?", id)).status).toBe(200);
    expect((await rowsChanged(organizationId)) - beforeAgain).toBe(0);
  });

  it("a customer's new name still reaches their conversation", async () => {
    const { owner, organizationId, phoneNumberId } = await connected();
    const customer = { from: customerPhone(), userId: customerBsuid() };
    await deliver(delivery(inboundMessage({ phoneNumberId, ...customer, name: "Lu" })));
    await deliver(delivery(inboundMessage({ phoneNumberId, ...customer, name: "Lucía Pérez" })));
    const row = await orgFirst(
      organizationId,
      "SELECT contact_name FROM conversations WHERE wa_user_id = ?",
      customer.userId,
    );
    expect(row).toEqual({ contact_name: "Lucía Pérez" });
    const named = await answer(api(owner.token).conversations.$get({ query: { search: "Pérez" } }));
    expect(named.body.data.conversations).toHaveLength(1);
  });
});

describe("a job asked for again", () => {
  it("rewrites its row only when its time changes", async () => {
    const { organizationId } = await connected();
    const store = await organizationStore(env, organizationId);
    const key = jobKey("broadcasts");
    const at = Date.now() + 60_000;
    // Each status of a broadcast asks for its results job: only a sooner time is a write.
    const written = await runInDurableObject(store, (_, state) => {
      const { sql } = state.storage;
      const changes = () => sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;
      const ask = (dueAt: number) => {
        const before = changes();
        askFor(sql, { key, kind: "job", dueAt }, "earliest");
        return changes() - before;
      };
      return [ask(at), ask(at + 5_000), ask(at), ask(at - 5_000), scheduledWork(sql, key)?.dueAt];
    });
    expect(written).toEqual([1, 0, 0, 1, at - 5_000]);
  });
});
