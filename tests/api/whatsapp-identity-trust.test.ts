// Whom a delivery may be trusted to name (contract section 12, 2026-11-25): a phone that comes
// with a BSUID other than its conversation's, and no `user_changed_*` notice, is another person
// (a recycled number); identity notices move only the identifier they name, and only forward.
import { describe, expect, it } from "vitest";
import { burst, delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { answer, api } from "../support/api";
import { connectWhatsapp, openWindow } from "../support/db";
import { createOwner } from "../support/factories";
import { connect } from "../support/sockets";
import { customerBsuid, deliver, graphRequests } from "../support/webhooks";

const phone = () => `3462${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
/** WhatsApp's timestamp (whole seconds) of `days` ago. */
const daysAgo = (days: number) => String(Math.floor(Date.now() / 1000) - days * 86_400);

async function connectedOwner() {
  const owner = await createOwner();
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: GRAPH_FIXTURES.wabaId,
  });
  return { owner, phoneNumberId: connection.phoneNumberId };
}

/** The organization's conversations, keyed by BSUID. */
async function inboxByUserId(token: string) {
  const res = await answer(api(token).conversations.$get({ query: { limit: "100" } }));
  expect(res.status).toBe(200);
  return new Map(res.body.data.conversations.map((c) => [c.contact.user_id, c]));
}

async function contents(token: string, conversationId: string) {
  const res = await answer(
    api(token).conversations[":id"].messages.$get({
      param: { id: conversationId },
      query: { limit: "100" },
    }),
  );
  return res.body.data.messages.map((m) => m.content);
}

/** A system message as Meta sends it: no `contacts` array. */
function systemNotice(
  phoneNumberId: string,
  system: Record<string, string>,
  sender: { from?: string; userId?: string; id?: string; timestamp?: string },
) {
  const change = inboundMessage({ phoneNumberId, ...sender, type: "system", part: system });
  delete (change.value as { contacts?: unknown }).contacts;
  return change;
}

describe("a phone that comes with another BSUID (a recycled number)", () => {
  it("is a new conversation with the phone; the old customer keeps BSUID, thread and replies", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const [ana, sergio] = [customerBsuid(), customerBsuid()];
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from: number,
          userId: ana,
          timestamp: daysAgo(200),
          text: "Soy Ana, mi pedido 4411",
        }),
      ),
    );
    const watcher = await connect(owner.token);
    // Months later Meta gives the number to someone else: same phone, another BSUID, no notice.
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: number, userId: sergio, text: "Hola" })),
    );
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(2);
    const [old, newcomer] = [inbox.get(ana)!, inbox.get(sergio)!];
    expect(newcomer.contact.phone_number).toBe(number);
    expect(await contents(owner.token, newcomer.id)).toEqual(["Hola"]);
    expect(old.contact.phone_number).toBeNull();
    expect(await contents(owner.token, old.id)).toEqual(["Soy Ana, mi pedido 4411"]);
    // The consoles hear that the old conversation no longer has the number.
    const update = await watcher.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.id === old.id,
    );
    expect(update.data.conversation.phone_number).toBeNull();
    watcher.socket.close();

    // An answer in Ana's thread goes to Ana by BSUID, never to whoever has her old number now.
    await openWindow(owner.organization.id, old.id);
    const text = `Tu pedido 4411 sale mañana ${crypto.randomUUID()}`;
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: old.id, content: text },
      }),
    );
    expect(sent.status).toBe(201);
    const [request] = (await graphRequests("/messages")).filter((r) =>
      JSON.stringify(r.body).includes(text),
    );
    expect(request.body).toMatchObject({ recipient: ana });
    expect(request.body).not.toHaveProperty("to");
  });

  it("never takes the phone back for a late message of the old customer", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const [ana, sergio] = [customerBsuid(), customerBsuid()];
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId, from: number, userId: ana, timestamp: daysAgo(200) }),
      ),
    );
    await deliver(delivery(inboundMessage({ phoneNumberId, from: number, userId: sergio })));
    // Ana's message from before the number changed hands, delivered only now.
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from: number,
          userId: ana,
          timestamp: daysAgo(199),
          text: "¿Llegó mi pago?",
        }),
      ),
    );
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(2);
    expect(inbox.get(sergio)!.contact.phone_number).toBe(number);
    expect(inbox.get(ana)!.contact.phone_number).toBeNull();
    expect((await contents(owner.token, inbox.get(ana)!.id)).at(-1)).toBe("¿Llegó mi pago?");
  });

  it("gives a newcomer older than the phone's conversation its own thread, without the phone", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const [ana, sergio] = [customerBsuid(), customerBsuid()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: number, userId: ana })));
    // Another BSUID on the number, stamped before Ana's last message: who has the number now
    // cannot be told, so it stays where it is, and the message is still not Ana's.
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from: number,
          userId: sergio,
          timestamp: daysAgo(1),
          text: "¿Quién es?",
        }),
      ),
    );
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(2);
    expect(inbox.get(ana)!.contact.phone_number).toBe(number);
    expect(inbox.get(sergio)!.contact.phone_number).toBeNull();
    expect(await contents(owner.token, inbox.get(sergio)!.id)).toEqual(["¿Quién es?"]);
    expect(await contents(owner.token, inbox.get(ana)!.id)).toEqual(["Hola"]);
  });

  it("keeps two BSUIDs of one phone apart inside a single delivery", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const [ana, sergio] = [customerBsuid(), customerBsuid()];
    const res = await deliver(
      delivery(
        burst(
          inboundMessage({
            phoneNumberId,
            from: number,
            userId: ana,
            timestamp: daysAgo(200),
            text: "de Ana",
          }),
          inboundMessage({ phoneNumberId, from: number, userId: sergio, text: "de Sergio" }),
        ),
      ),
    );
    expect(res.body.stored).toBe(2);
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(2);
    // The number goes with whoever wrote from it last.
    expect(inbox.get(sergio)!.contact.phone_number).toBe(number);
    expect(inbox.get(ana)!.contact.phone_number).toBeNull();
    expect(await contents(owner.token, inbox.get(ana)!.id)).toEqual(["de Ana"]);
    expect(await contents(owner.token, inbox.get(sergio)!.id)).toEqual(["de Sergio"]);
  });

  it("lets a customer who shares a number another BSUID held long ago take it", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const [ana, sergio] = [customerBsuid(), customerBsuid()];
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId, from: number, userId: ana, timestamp: daysAgo(200) }),
      ),
    );
    await deliver(delivery(inboundMessage({ phoneNumberId, userId: sergio, username: "sergio" })));
    // Sergio's answer to "Pedir teléfono": the number WhatsApp gave him, once Ana's.
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          userId: sergio,
          type: "contacts",
          part: [
            {
              name: { formatted_name: "Sergio" },
              phones: [{ phone: `+${number}`, wa_id: number, type: "MOBILE" }],
              origin: "contact_request",
            },
          ],
        }),
      ),
    );
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(2);
    expect(inbox.get(sergio)!.contact.phone_number).toBe(number);
    expect(inbox.get(ana)!.contact.phone_number).toBeNull();
  });
});

describe("identity notices move only the identifier they name", () => {
  it("re-keys nothing with a user_changed_user_id that names no current BSUID", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const [current, next] = [customerBsuid(), customerBsuid()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: number, userId: current })));
    for (const previous of [customerBsuid(), "no es un BSUID"]) {
      const res = await deliver(
        delivery(
          systemNotice(
            phoneNumberId,
            { type: "user_changed_user_id", user_id: next, previous_user_id: previous },
            { from: number },
          ),
        ),
      );
      expect(res.status).toBe(200);
      expect(res.body.stored).toBe(0);
    }
    const inbox = await inboxByUserId(owner.token);
    expect([...inbox.keys()]).toEqual([current]);
    expect(await contents(owner.token, inbox.get(current)!.id)).toEqual(["Hola"]);
  });

  it("moves a phone only from the number the user_changed_number names", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [known, named, next] = [phone(), phone(), phone()];
    const [before, after] = [customerBsuid(), customerBsuid()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: known, userId: before })));
    await deliver(
      delivery(
        systemNotice(
          phoneNumberId,
          {
            type: "user_changed_number",
            body: `User changed from ${named} to ${next}`,
            wa_id: next,
            user_id: after,
            previous_user_id: before,
          },
          { from: named, userId: before },
        ),
      ),
    );
    const inbox = await inboxByUserId(owner.token);
    expect([...inbox.keys()]).toEqual([after]);
    expect(inbox.get(after)!.contact.phone_number).toBe(known);
  });

  it("never moves a phone back for a repeated user_changed_number", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [first, second, third] = [phone(), phone(), phone()];
    const userId = customerBsuid();
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: first, userId, timestamp: daysAgo(30) })),
    );
    const change = (id: string, from: string, to: string, days: number) =>
      delivery(
        systemNotice(
          phoneNumberId,
          { type: "user_changed_number", body: `User changed from ${from} to ${to}`, wa_id: to },
          { from, userId, id, timestamp: daysAgo(days) },
        ),
      );
    const firstChange = change(`wamid.${crypto.randomUUID()}`, first, second, 20);
    await deliver(firstChange);
    await deliver(change(`wamid.${crypto.randomUUID()}`, second, third, 10));
    const res = await deliver(firstChange); // Meta retries the older notice.
    expect(res.body.stored).toBe(0);
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(1);
    expect(inbox.get(userId)!.contact.phone_number).toBe(third);
  });

  it("ignores a user_changed_number older than the conversation's latest identity change", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [first, second, elsewhere] = [phone(), phone(), phone()];
    const userId = customerBsuid();
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: first, userId, timestamp: daysAgo(40) })),
    );
    const change = (from: string, to: string, days: number) =>
      delivery(
        systemNotice(
          phoneNumberId,
          { type: "user_changed_number", body: `User changed from ${from} to ${to}`, wa_id: to },
          { from, userId, timestamp: daysAgo(days) },
        ),
      );
    // The customer moved to a second number and back; a change from before both arrives last.
    await deliver(change(first, second, 20));
    await deliver(change(second, first, 10));
    const late = await deliver(change(first, elsewhere, 30));
    expect(late.body.stored).toBe(0);
    const inbox = await inboxByUserId(owner.token);
    expect(inbox.size).toBe(1);
    const conversation = inbox.get(userId)!;
    expect(conversation.contact.phone_number).toBe(first);
    expect(await contents(owner.token, conversation.id)).toEqual([
      "Hola",
      `El cliente cambió su número de WhatsApp a +${second}.`,
      `El cliente cambió su número de WhatsApp a +${first}.`,
    ]);
  });

  it("opens no conversation for a repeated notice whose old identifiers nobody holds now", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [oldNumber, newNumber] = [phone(), phone()];
    const [before, after] = [customerBsuid(), customerBsuid()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: oldNumber, userId: before })));
    const notice = delivery(
      systemNotice(
        phoneNumberId,
        {
          type: "user_changed_number",
          body: `User changed from ${oldNumber} to ${newNumber}`,
          wa_id: newNumber,
          user_id: after,
          previous_user_id: before,
        },
        { from: oldNumber, userId: before },
      ),
    );
    await deliver(notice);
    await deliver(notice);
    const inbox = await inboxByUserId(owner.token);
    expect([...inbox.keys()]).toEqual([after]);
    expect(inbox.get(after)!.contact.phone_number).toBe(newNumber);
  });
});
