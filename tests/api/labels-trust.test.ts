// Labels hold under concurrency (issue #31): a label deleted while someone puts it on a
// conversation never makes a 500, and each organization's labels are capped, even when two
// managers create the last one at once, so `GET /labels` stays one bounded answer.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Db } from "../../worker/db/client";
import type { Member } from "../../worker/http/context";
import { depsForBackground } from "../../worker/http/deps";
import { LABELS_MAX, LABELS_TOO_MANY } from "../../worker/team-inbox/contract";
import { deleteLabel, setConversationLabels } from "../../worker/team-inbox/labels-service";
import { addMember, createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
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

/** `n` labels written straight to D1 (the API would take a while and meet the write limits). */
async function seedLabels(owner: Owner, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
     INSERT INTO labels (id, organization_id, name, color, created_at, updated_at)
     SELECT lower(hex(randomblob(16))), ?2, 'Etiqueta ' || i, '#2563eb',
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     FROM seq`,
  )
    .bind(n, owner.organization.id)
    .run();
}

const labelCount = async (owner: Owner) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM labels WHERE organization_id = ?")
    .bind(owner.organization.id)
    .first<{ n: number }>())!.n;

/**
 * Background deps whose first `batch` runs `meanwhile` before it: what another request does
 * after the service has read what it checks and before it writes, exactly where a race falls.
 */
function raceBeforeWrite(meanwhile: () => Promise<void>) {
  const deps = depsForBackground(env, () => {});
  const state = { ran: false };
  // The organization's statements: a batch of D1 while its data is there (orgBatch).
  const db = new Proxy(deps.orgDb as Db, {
    get(target, prop, receiver) {
      if (prop !== "batch") return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Db["batch"]>) => {
        if (!state.ran) {
          state.ran = true;
          await meanwhile();
        }
        return target.batch(...args);
      };
    },
  });
  return { deps: { ...deps, orgDb: db }, state };
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
    const { deps, state } = raceBeforeWrite(async () => {
      expect((await removeLabel(owner, gone.id)).status).toBe(200);
    });

    const updated = await setConversationLabels(deps, asMember(owner, marta.user.id, "agent"), {
      id: conversation.id,
      label_ids: [vip.id, gone.id],
    });
    expect(state.ran).toBe(true);
    expect(updated.labels.map((l) => l.name)).toEqual(["VIP"]);
    expect((await labelsOf(owner, conversation.id)).map((l) => l.name)).toEqual(["VIP"]);
    const rows = await env.DB.prepare(
      "SELECT label_id FROM conversation_labels WHERE conversation_id = ?",
    )
      .bind(conversation.id)
      .all<{ label_id: string }>();
    expect(rows.results.map((r) => r.label_id)).toEqual([vip.id]);
    // And no labels at all is still a list to write.
    const cleared = await putLabels(marta.token, conversation.id, []);
    expect(cleared.body.data.labels).toEqual([]);
  });

  it("answers 404 when the conversation goes between the check and the write (retention)", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    const label = await makeLabel(owner, "VIP");
    const { deps, state } = raceBeforeWrite(async () => {
      await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(conversation.id).run();
    });

    await expect(
      setConversationLabels(deps, asMember(owner, owner.user.id, "owner"), {
        id: conversation.id,
        label_ids: [label.id],
      }),
    ).rejects.toMatchObject({ status: 404, message: "Conversación no encontrada." });
    expect(state.ran).toBe(true);
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM conversation_labels WHERE label_id = ?",
    )
      .bind(label.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("tells the consoles about a conversation labelled while its label was being deleted", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    const label = await makeLabel(owner, "VIP");
    const inbox = await connect(owner.token);
    const { deps, state } = raceBeforeWrite(async () => {
      expect((await putLabels(owner.token, conversation.id, [label.id])).status).toBe(200);
    });

    await deleteLabel(deps, asMember(owner, owner.user.id, "owner"), { id: label.id });
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
