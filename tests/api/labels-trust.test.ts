// Labels hold under concurrency (issue #31): a label deleted while someone puts it on a
// conversation never makes a 500, and each organization's labels are capped, even when two
// managers create the last one at once, so `GET /labels` stays one bounded answer.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { OrganizationDb } from "../../durable-objects/db";
import { conversations } from "../../durable-objects/schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { LABELS_MAX, LABELS_TOO_MANY } from "../../contracts/team-inbox";
import {
  deleteLabel,
  setConversationLabels,
} from "../../durable-objects/team-inbox/labels-service";
import { addMember, createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst, orgSql, withStoreDeps } from "../support/org-data";
import { connect, tick } from "../support/sockets";

type Owner = Awaited<ReturnType<typeof createOwner>>;

const makeLabel = async (owner: Owner, name: string) =>
  (await answer(api(owner.token).labels.$post({ json: { name, color: "#2563eb" } }))).body.data;

const putLabels = (token: string, id: string, label_ids: string[]) =>
  answer(api(token).conversations[":id"].labels.$put({ param: { id }, json: { label_ids } }));

const removeLabel = (owner: Owner, id: string) =>
  answer(api(owner.token).labels[":id"].$delete({ param: { id } }));

const labelsOf = async (owner: Owner, id: string) =>
  (await answer(api(owner.token).conversations[":id"].$get({ param: { id } }))).body.data.labels;

/**
 * `n` labels written straight to the organization's data (the API would take a while and meet
 * the write limits).
 */
async function seedLabels(owner: Owner, n: number) {
  await orgSql(
    owner.organization.id,
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
     INSERT INTO labels (id, organization_id, name, color, created_at, updated_at)
     SELECT lower(hex(randomblob(16))), ?2, 'Etiqueta ' || i, '#2563eb',
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     FROM seq`,
    n,
    owner.organization.id,
  );
}

const labelCount = async (owner: Owner) =>
  (await orgFirst<{ n: number }>(
    owner.organization.id,
    "SELECT count(*) AS n FROM labels WHERE organization_id = ?",
    owner.organization.id,
  ))!.n;

/**
 * Runs `work` with background deps over the organization's data, whose first all-or-nothing
 * write (orgBatch: D1's `batch`, a store's `transaction`) runs `meanwhile` before it: what
 * another request does after the service has read what it checks and before it writes, exactly
 * where a race falls. `meanwhile` gets the organization's data to change it directly.
 */
function raceBeforeWrite<T>(
  owner: Owner,
  meanwhile: (orgDb: OrganizationDb) => Promise<unknown>,
  work: (deps: StoreDeps) => Promise<T>,
) {
  const state = { ran: false };
  const result = withStoreDeps(owner.organization.id, (storeDeps) => {
    const racing = new Proxy(storeDeps.orgDb, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (prop !== "transaction" || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (!state.ran) {
            state.ran = true;
            await meanwhile(target);
          }
          return value.apply(target, args);
        };
      },
    });
    return work({ ...storeDeps, orgDb: racing });
  });
  return { result, state };
}

const asMember = (owner: Owner, userId: string, role: Member["role"]): Member => ({
  userId,
  sessionId: "test",
  ip: null,
  organizationId: owner.organization.id,
  role,
});

describe("putting labels on a conversation while one is deleted", () => {
  it("answers with the labels that still exist when one goes between the check and the write", async () => {
    const owner = await createOwner();
    const marta = await addMember(owner.organization.id, "agent");
    const conversation = await createConversation(owner);
    const [vip, gone] = [await makeLabel(owner, "VIP"), await makeLabel(owner, "Temporal")];
    const { result, state } = raceBeforeWrite(
      owner,
      async () => expect((await removeLabel(owner, gone.id)).status).toBe(200),
      (deps) =>
        setConversationLabels(deps, asMember(owner, marta.user.id, "agent"), {
          id: conversation.id,
          label_ids: [vip.id, gone.id],
        }),
    );
    const updated = await result;
    expect(state.ran).toBe(true);
    expect(updated.labels.map((l) => l.name)).toEqual(["VIP"]);
    expect((await labelsOf(owner, conversation.id)).map((l) => l.name)).toEqual(["VIP"]);
    const rows = await orgSql<{ label_id: string }>(
      owner.organization.id,
      "SELECT label_id FROM conversation_labels WHERE conversation_id = ?",
      conversation.id,
    );
    expect(rows.map((r) => r.label_id)).toEqual([vip.id]);
    // And no labels at all is still a list to write.
    const cleared = await putLabels(marta.token, conversation.id, []);
    expect(cleared.body.data.labels).toEqual([]);
  });

  it("answers 404 when the conversation goes between the check and the write (retention)", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    const label = await makeLabel(owner, "VIP");
    const { result, state } = raceBeforeWrite(
      owner,
      (orgDb) => orgDb.delete(conversations).where(eq(conversations.id, conversation.id)),
      (deps) =>
        setConversationLabels(deps, asMember(owner, owner.user.id, "owner"), {
          id: conversation.id,
          label_ids: [label.id],
        }),
    );

    await expect(result).rejects.toMatchObject({
      status: 404,
      message: "Conversación no encontrada.",
    });
    expect(state.ran).toBe(true);
    const rows = await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM conversation_labels WHERE label_id = ?",
      label.id,
    );
    expect(rows!.n).toBe(0);
  });

  it("tells the consoles about a conversation labelled while its label was being deleted", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    const label = await makeLabel(owner, "VIP");
    const inbox = await connect(owner.token);
    const { result, state } = raceBeforeWrite(
      owner,
      async () =>
        expect((await putLabels(owner.token, conversation.id, [label.id])).status).toBe(200),
      (deps) => deleteLabel(deps, asMember(owner, owner.user.id, "owner"), { id: label.id }),
    );
    await result;
    expect(state.ran).toBe(true);
    await tick();
    inbox.socket.close();
    const updates = inbox.received.filter(
      (e) => e.type === "conversation_update" && e.data.conversation.id === conversation.id,
    );
    // The last word the consoles heard is the conversation without the deleted label.
    expect(updates.at(-1)?.data.conversation.labels).toEqual([]);
    expect(await labelsOf(owner, conversation.id)).toEqual([]);
  });

  it("never answers 500 when labelling and deleting race over HTTP", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    /** `steps` round trips to D1: how far behind the deletions the labelling starts. */
    const after = async (steps: number) => {
      for (let i = 0; i < steps; i++) await env.DB.prepare("SELECT 1").first();
    };
    for (let round = 0; round < 6; round++) {
      const labels = await Promise.all([1, 2, 3].map((i) => makeLabel(owner, `R${round}-${i}`)));
      const ids = labels.map((l) => l.id);
      const [put, ...deletes] = await Promise.all([
        after(round).then(() => putLabels(owner.token, conversation.id, ids)),
        ...ids.map((id) => removeLabel(owner, id)),
      ]);
      // Refused when a label was already gone (404), else applied with those left: never 500.
      expect([200, 404]).toContain(put.status);
      expect(deletes.map((d) => d.status)).toEqual([200, 200, 200]);
      expect(await labelsOf(owner, conversation.id)).toEqual([]);
    }
  });
});

describe("each organization's labels are capped", () => {
  it(`refuses the label past ${LABELS_MAX} with a 422 in Spanish, even two at once`, async () => {
    const owner = await createOwner();
    const stranger = await createOwner();
    await seedLabels(owner, LABELS_MAX - 1);
    const both = await Promise.all([
      answer(api(owner.token).labels.$post({ json: { name: "Última A", color: "#dc2626" } })),
      answer(api(owner.token).labels.$post({ json: { name: "Última B", color: "#dc2626" } })),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 422]);
    const refused = both.find((r) => r.status === 422)!;
    expect(refused.body).toEqual({ error: "label_limit", message: LABELS_TOO_MANY });
    expect(await labelCount(owner)).toBe(LABELS_MAX);

    // At the cap the cap is what is said, whatever the name.
    const taken = await answer(
      api(owner.token).labels.$post({ json: { name: "Etiqueta 1", color: "#dc2626" } }),
    );
    expect(taken.status).toBe(422);
    // Another organization is not affected; deleting one makes room again.
    expect((await makeLabel(stranger, "VIP")).name).toBe("VIP");
    const listed = (await answer(api(owner.token).labels.$get())).body.data.labels;
    expect(listed).toHaveLength(LABELS_MAX);
    expect((await removeLabel(owner, listed[0]!.id)).status).toBe(200);
    expect((await makeLabel(owner, "Otra")).name).toBe("Otra");
    expect(await labelCount(owner)).toBe(LABELS_MAX);
  });

  it("lists every label in one answer, never more than the cap", async () => {
    const owner = await createOwner();
    // Written past the cap straight to D1, as only data from before the cap could be.
    await seedLabels(owner, LABELS_MAX + 5);
    const listed = (await answer(api(owner.token).labels.$get())).body.data.labels;
    expect(listed).toHaveLength(LABELS_MAX);
    const names = listed.map((l) => l.name);
    expect(names).toEqual([...names].sort());
  });

  it("still renames and recolours labels at the cap", async () => {
    const owner = await createOwner();
    await seedLabels(owner, LABELS_MAX);
    const [first] = (await answer(api(owner.token).labels.$get())).body.data.labels;
    const renamed = await answer(
      api(owner.token).labels[":id"].$patch({
        param: { id: first!.id },
        json: { name: "Renombrada", color: "#16a34a" },
      }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "Renombrada", color: "#16a34a" });
  });
});
