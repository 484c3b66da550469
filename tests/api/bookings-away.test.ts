// The away message (contract section 18, decision 0077): outside the opening hours, when no AI
// agent answers, a customer's first message of each closed stretch gets it once; never while
// open, never where an AI agent answers.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { organizationStore } from "../../worker/stores/registry";
import { ALWAYS, patchOrganization, setHours } from "../support/bookings";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner } from "../support/factories";
import { orgSql } from "../support/org-data";
import { customerPhone, deliver, graphRequests } from "../support/webhooks";

const AWAY = "Ahora estamos cerrados. Te respondemos en cuanto abramos.";
const DAY_MS = 86_400_000;
const utcDate = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

/** An organization with a connected number, its away message on, closed today and tomorrow (or open). */
async function awayOrganization({ open = false, agent = false } = {}) {
  const owner = await createOwner();
  const orgId = owner.organization.id as string;
  const defaultAgentId = agent ? (await createAgent(owner)).id : undefined;
  const connection = await connectWhatsapp(orgId, { defaultAgentId });
  await setHours(owner, ALWAYS, {
    timeZone: "UTC",
    closedDates: open ? [] : [utcDate(0), utcDate(1)],
  });
  const res = await patchOrganization(owner, { away_message: { enabled: true, text: AWAY } });
  expect(res.status).toBe(200);
  const store = await organizationStore(env, orgId);
  const write = async (phone: string, text = "Hola, ¿tenéis cita mañana?") => {
    const res = await deliver(
      delivery(inboundMessage({ phoneNumberId: connection.phoneNumberId, from: phone, text })),
    );
    expect(res.status).toBe(200);
    await runDurableObjectAlarm(store);
  };
  return { owner, orgId, write };
}

/** The away messages the fake Meta was asked to send to a phone. */
const awaySentTo = async (phone: string) =>
  (await graphRequests("messages")).filter(
    (r) => r.body?.to === phone && r.body?.text?.body === AWAY,
  );

describe("the away message", () => {
  it("answers a customer's first message of a closed stretch, once", async () => {
    const { orgId, write } = await awayOrganization();
    const phone = customerPhone();
    await write(phone);
    await write(phone, "¿Hola?");
    await write(phone, "¿Hay alguien?");
    expect(await awaySentTo(phone)).toHaveLength(1);
    const sent = await orgSql<Record<string, any>>(
      orgId,
      "SELECT sender_type, status FROM messages WHERE content = ? AND direction = 'outbound'",
      AWAY,
    );
    expect(sent).toEqual([{ sender_type: "bot", status: "sent" }]);
    // The stretch is named by when it ends: the day after tomorrow, at 00:00 UTC.
    const [claim] = await orgSql<Record<string, any>>(
      orgId,
      "SELECT stretch_ends_at, state FROM away_message_sends",
    );
    expect(claim).toEqual({ stretch_ends_at: `${utcDate(2)}T00:00:00.000Z`, state: "sent" });

    // Another customer of the same stretch gets their own.
    const other = customerPhone();
    await write(other);
    expect(await awaySentTo(other)).toHaveLength(1);
  });

  it("is not sent while the business is open", async () => {
    const { write } = await awayOrganization({ open: true });
    const phone = customerPhone();
    await write(phone);
    expect(await awaySentTo(phone)).toEqual([]);
  });

  it("is not sent where an AI agent answers the conversation", async () => {
    const { write } = await awayOrganization({ agent: true });
    const phone = customerPhone();
    await write(phone);
    expect(await awaySentTo(phone)).toEqual([]);
  });

  it("is not sent when it is off", async () => {
    const { owner, write } = await awayOrganization();
    await patchOrganization(owner, { away_message: { enabled: false, text: AWAY } });
    const phone = customerPhone();
    await write(phone);
    expect(await awaySentTo(phone)).toEqual([]);
  });
});
