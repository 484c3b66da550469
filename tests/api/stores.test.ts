// Each organization's store (contract section 15, docs/decisions/0052, 0075): reached by the
// registry's store_id, serving one organization only, migrating its own schema when it wakes,
// listed for the operator; an organization the upgrade stop left in D1 is not served.
import {
  applyD1Migrations,
  listDurableObjectIds,
  reset,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { api as workerApp } from "../../worker/api";
import {
  migrateStore,
  STORE_MIGRATIONS,
  STORE_SCHEMA_VERSION,
  type StoreMigration,
} from "../../durable-objects/migrations/store-migrations";
import { organizationStore, storeAt } from "../../worker/stores/registry";
import { EXAMPLE_OPERATOR_TOKEN } from "../../worker/stores/operator-routes";
import { isEeaCountry } from "../../worker/stores/jurisdiction";
import { orgFirst } from "../support/org-data";
import { listedStore } from "../support/operator";
import { connectWhatsapp } from "../support/db";
import { createAgent, createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { connect } from "../support/sockets";
import { botMessages, runDueReplies } from "../support/replies";
import { customerPhone, deliver } from "../support/webhooks";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { keysUnder, makeDue } from "../support/scheduled-work";
import { askFor } from "../../durable-objects/scheduler";

const registryRow = (organizationId: string) =>
  env.DB.prepare("SELECT * FROM organization_stores WHERE organization_id = ?")
    .bind(organizationId)
    .first<Record<string, any>>();

const ownerOfStore = (storeId: string) =>
  runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, state) =>
    state.storage.sql
      .exec<{ organization_id: string }>("SELECT organization_id FROM store_owner")
      .toArray(),
  );

describe("the store registry", () => {
  it("gives a new organization a store of its own, reached by its store_id", async () => {
    const owner = await createOwner();
    const row = await registryRow(owner.organization.id);
    // Its data starts in its store.
    expect(row).toMatchObject({ state: "store", jurisdiction: null });
    expect(row!.store_id).not.toBe(owner.organization.id);

    // The console's socket and the events it hears go through the store named by store_id.
    const socket = await connect(owner.token);
    const conversation = await createConversation(owner);
    await workerApp.request(
      `/api/v1/conversations/${conversation.id}`,
      {
        method: "PATCH",
        headers: { Authorization: `Bearer ${owner.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "closed" }),
      },
      env,
    );
    await socket.receive((event) => event.type === "conversation_update");
    expect(await ownerOfStore(row!.store_id)).toEqual([{ organization_id: owner.organization.id }]);
    // Nothing was ever made under a name derived from the organization.
    const named = env.ORGANIZATION_HUB.idFromName(owner.organization.id);
    const made = await listDurableObjectIds(env.ORGANIZATION_HUB);
    expect(made.some((id) => id.equals(named))).toBe(false);
    socket.socket.close();
  });

  it("a store serves one organization: a call for another does nothing", async () => {
    const [a, b] = [await createOwner(), await createOwner()];
    const socketOfA = await connect(a.token);
    const storeOfA = await organizationStore(env, a.organization.id);
    const event = { type: "pong" } as never;
    // Through the wrong store, B's events reach none of A's consoles and B's replies stay off
    // A's schedule.
    expect(await storeOfA.publish(b.organization.id, [event])).toBe(0);
    await storeOfA.scheduleReply(b.organization.id, "conversacion-de-b");
    expect(await keysUnder(storeOfA, "")).not.toContain("reply:conversacion-de-b");
    expect(await storeOfA.publish(a.organization.id, [event])).toBe(1);
    socketOfA.socket.close();
  });

  it("refuses work it holds under another organization's id, never running it on that one's data", async () => {
    const [a, b] = [await createOwner(), await createOwner()];
    const agent = await createAgent(b, { name: "Sofía" });
    const { phoneNumberId } = await connectWhatsapp(b.organization.id, {
      phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
      defaultAgentId: agent.id,
    });
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Qué precio tiene?" })));
    const conversation = (await orgFirst(
      b.organization.id,
      "SELECT id FROM conversations WHERE phone_number = ?",
      from,
    ))!;
    const storeOfA = await organizationStore(env, a.organization.id);
    expect(await storeOfA.publish(a.organization.id, [])).toBe(0); // A's store is A's.
    // A reply of B's conversation in A's store (a row a restore brought back, say): its work is
    // A's, on A's data.
    await runInDurableObject(storeOfA, async (_, state) => {
      askFor(
        state.storage.sql,
        { key: `reply:${conversation.id}`, kind: "reply", dueAt: 0 },
        "latest",
      );
      await state.storage.setAlarm(Date.now());
    });
    await runDueReplies(storeOfA);
    expect(await botMessages(b.organization.id, conversation.id as string)).toEqual([]);
    // B's own store answers it.
    await runDueReplies(await organizationStore(env, b.organization.id));
    expect(await botMessages(b.organization.id, conversation.id as string)).toHaveLength(1);
  });

  it("erases a deleted organization's store: its sockets closed, its jobs gone", async () => {
    const owner = await createOwner();
    const { store_id: storeId } = (await registryRow(owner.organization.id))!;
    const socket = await connect(owner.token);
    const store = await organizationStore(env, owner.organization.id);
    await store.scheduleReply(owner.organization.id, "una-conversacion");

    const res = await answer(
      api(owner.token).profiles.me.$delete({ json: { password: owner.password } }),
    );
    expect(res.body.data).toEqual({ organization_deleted: true });
    expect((await socket.closed).code).toBe(4001);
    expect(await registryRow(owner.organization.id)).toBeNull();
    const erased = storeAt(env, { storeId, jurisdiction: null, state: "store" });
    const left = () =>
      runInDurableObject(erased, async (_, state) => [
        [...(await state.storage.list()).keys()],
        await state.storage.getAlarm(),
      ]);
    // Only the tombstone is left, and a late call (a reply a delivery queues) is refused.
    expect(await left()).toEqual([["erased"], null]);
    await erased.scheduleReply(owner.organization.id, "una-conversacion");
    expect(await left()).toEqual([["erased"], null]);
  });

  it("erases itself when its alarm finds its organization deleted (an erase that failed), and only then", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    const conversation = await createConversation(owner);
    const store = await organizationStore(env, orgId);
    await store.scheduleReply(orgId, conversation.id);
    const runReplyNow = async () => {
      await makeDue(store, "reply:");
      await runDurableObjectAlarm(store);
    };
    const left = () =>
      runInDurableObject(store, async (_, state) => [
        state.storage.sql.exec("SELECT key FROM scheduled_work WHERE kind = 'reply'").toArray()
          .length,
        state.storage.sql.exec("SELECT id FROM conversations").toArray().length,
        (await state.storage.get("erased")) !== undefined,
      ]);

    // The registry's row gone without the deletion's evidence (a table rebuilt, a restore):
    // the work waits, the data stays.
    await env.DB.prepare("DELETE FROM organization_stores WHERE organization_id = ?")
      .bind(orgId)
      .run();
    await runReplyNow();
    expect(await left()).toEqual([1, 1, false]);

    // Deleted, as the account's deletion records it, and the erase never came: erased.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM organizations WHERE id = ?").bind(orgId),
      env.DB.prepare(
        "INSERT INTO deleted_organizations (organization_id, deleted_at) VALUES (?, ?)",
      ).bind(orgId, new Date().toISOString()),
    ]);
    await runReplyNow();
    const erased = await runInDurableObject(store, async (_, state) => [
      [...(await state.storage.list()).keys()],
      await state.storage.getAlarm(),
    ]);
    expect(erased).toEqual([["erased"], null]);
  });

  it("puts an organization in the EEA in the EU jurisdiction when the deployment asks", () => {
    for (const country of ["España", "espana", "ES", " Alemania ", "Países Bajos", "Noruega"]) {
      expect(isEeaCountry(country), country).toBe(true);
    }
    for (const country of ["México", "Colombia", "Suiza", "Reino Unido", "US", ""]) {
      expect(isEeaCountry(country), country).toBe(false);
    }
  });
});

describe("a store's schema", () => {
  it("migrates itself on wake and tells the registry its version", async () => {
    const owner = await createOwner();
    const { store_id: storeId } = (await registryRow(owner.organization.id))!;
    // The store wakes on its first call, migrates, and reports once it knows its organization.
    await (await organizationStore(env, owner.organization.id)).publish(owner.organization.id, []);
    await vi.waitFor(async () =>
      expect((await registryRow(owner.organization.id))!.schema_version).toBe(STORE_SCHEMA_VERSION),
    );
    const applied = await runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, state) =>
      state.storage.sql
        .exec("SELECT version, name FROM store_migrations ORDER BY version")
        .toArray(),
    );
    // Every migration of the repository, in order (a version another branch holds may be absent).
    expect(applied.map((m) => m.version)).toEqual(STORE_MIGRATIONS.map((m) => m.version));
  });

  it("applies only what it lacks, and a failing migration leaves it at the version before", async () => {
    const next: StoreMigration[] = [
      { version: STORE_SCHEMA_VERSION + 1, name: "notes", sql: "CREATE TABLE t_notes (id TEXT)" },
      {
        version: STORE_SCHEMA_VERSION + 2,
        name: "broken",
        sql: "CREATE TABLE t_half (id TEXT); INSERT INTO no_such_table VALUES (1)",
      },
    ];
    const store = env.ORGANIZATION_HUB.getByName(crypto.randomUUID());
    await runInDurableObject(store, (_, state) => {
      const tables = () =>
        state.storage.sql
          .exec<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE name IN ('t_notes', 't_half')",
          )
          .toArray()
          .map((t) => t.name);
      // Woken with the repository's migrations: nothing left to apply.
      expect(migrateStore(state.storage)).toEqual({
        from: STORE_SCHEMA_VERSION,
        to: STORE_SCHEMA_VERSION,
      });
      expect(() => migrateStore(state.storage, [...next])).toThrow(/no_such_table/);
      expect(tables()).toEqual(["t_notes"]);
      expect(migrateStore(state.storage, next.slice(0, 1))).toEqual({
        from: STORE_SCHEMA_VERSION + 1,
        to: STORE_SCHEMA_VERSION + 1,
      });
    });
  });
});

describe("migration 0028", () => {
  it("refuses to drop the organizations' tables while any organization is still only in D1", async () => {
    await reset();
    const [before, [oneHome]] = [
      env.TEST_MIGRATIONS.filter((m) => m.name < "0028"),
      env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0028")),
    ];
    await applyD1Migrations(env.DB, before);
    const organizationId = crypto.randomUUID();
    const now = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO organizations (id, name, industry, employee_count, services_offered,
           business_hours, city, country, ai_use_case, tracking_key, created_at, updated_at)
         VALUES (?1, 'Clínica', 'Salud', '1-10', 'Limpiezas', 'L-V 9-19', 'Madrid', 'España',
           'Atención', ?2, ?3, ?3)`,
      ).bind(organizationId, crypto.randomUUID().replaceAll("-", ""), now),
      env.DB.prepare(
        `INSERT INTO organization_stores (organization_id, store_id, state, data_version, updated_at)
         VALUES (?, ?, 'd1', 0, ?)`,
      ).bind(organizationId, crypto.randomUUID(), now),
    ]);
    const tables = async () =>
      (
        await env.DB.prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('messages', 'move_changes')",
        ).all<{ name: string }>()
      ).results.map((row) => row.name);

    await expect(applyD1Migrations(env.DB, [oneHome!])).rejects.toThrow(
      /CHECK constraint failed: organizations_still_in_d1/,
    );
    expect((await tables()).sort()).toEqual(["messages", "move_changes"]);
    // Moved into the store at the version that holds all its data, but still a version short.
    await env.DB.prepare(
      "UPDATE organization_stores SET state = 'store', data_version = 2 WHERE organization_id = ?",
    )
      .bind(organizationId)
      .run();
    await expect(applyD1Migrations(env.DB, [oneHome!])).rejects.toThrow(/CHECK constraint/);

    await env.DB.prepare(
      "UPDATE organization_stores SET data_version = 3 WHERE organization_id = ?",
    )
      .bind(organizationId)
      .run();
    await applyD1Migrations(env.DB, [oneHome!]);
    // The rest of the file runs on the whole schema again.
    await applyD1Migrations(
      env.DB,
      env.TEST_MIGRATIONS.filter((m) => m.name.slice(0, 4) > "0028"),
    );
    expect(await tables()).toEqual([]);
    expect(
      await env.DB.prepare(
        "SELECT state, store_id IS NOT NULL AS stored FROM organization_stores WHERE organization_id = ?",
      )
        .bind(organizationId)
        .first(),
    ).toEqual({ state: "store", stored: 1 });
  });
});

describe("GET /api/v1/operator/stores", () => {
  const list = (token?: string, bindings = env, address = "198.51.100.1") =>
    workerApp.request(
      "/api/v1/operator/stores",
      {
        headers: {
          "CF-Connecting-IP": address,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      },
      bindings,
    );

  it("lists every organization's store for the operator, and nobody else", async () => {
    const owner = await createOwner({ name: "Zapatería Operador" });
    const res = await list(env.OPERATOR_TOKEN!);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown>[] };
    expect(data).toContainEqual({
      organization_id: owner.organization.id,
      name: "Zapatería Operador",
      state: "store",
      schema_version: expect.any(Number),
      bytes: expect.any(Number),
      messages: 0,
      served: true,
    });

    for (const token of [undefined, "otro", owner.token, `${env.OPERATOR_TOKEN!}x`]) {
      expect((await list(token)).status, String(token)).toBe(401);
    }
    // A deployment without the token has no operator routes at all.
    const without = await list(env.OPERATOR_TOKEN!, { ...env, OPERATOR_TOKEN: undefined });
    expect(without.status).toBe(404);
    // The Worker's own entry serves them too.
    const viaWorker = await exports.default.fetch("http://localhost/api/v1/operator/stores", {
      headers: { Authorization: `Bearer ${env.OPERATOR_TOKEN!}` },
    });
    expect(viaWorker.status).toBe(200);
  });

  it("has no routes with a token under 32 characters or the example's, and says why once in the log", async () => {
    const refusal = vi.spyOn(console, "error").mockImplementation(() => {});
    for (const weak of ["corto-0123456789", EXAMPLE_OPERATOR_TOKEN]) {
      const res = await list(weak, { ...env, OPERATOR_TOKEN: weak });
      expect(res.status, weak).toBe(404);
    }
    const said = refusal.mock.calls.filter(([line]) => String(line).includes("OPERATOR_TOKEN"));
    expect(said).toEqual([[expect.stringMatching(/^OPERATOR_TOKEN refused: .*32 characters/)]]);
    refusal.mockRestore();
  });

  it("lets an address fail 10 times in 15 minutes, then refuses it even the right token, logging each refusal", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const guesser = "203.0.113.77";
    for (let i = 0; i < 10; i++) {
      expect((await list(`adivina-${i}`, env, guesser)).status).toBe(401);
    }
    const locked = await list(env.OPERATOR_TOKEN!, env, guesser);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(800);
    // Another address is not held back.
    expect((await list(env.OPERATOR_TOKEN!, env, "203.0.113.78")).status).toBe(200);
    const refusals = warned.mock.calls.filter(([line]) => line === "operator call refused");
    expect(refusals).toHaveLength(10);
    expect(refusals[0]).toEqual([
      "operator call refused",
      guesser,
      "GET",
      "/api/v1/operator/stores",
    ]);
    warned.mockRestore();
  });
});

describe("an organization the upgrade stop left in D1", () => {
  /** What a deployment that skipped the upgrade stop's move would have in its registry. */
  const leftInD1 = (organizationId: string) =>
    env.DB.prepare("UPDATE organization_stores SET state = 'd1' WHERE organization_id = ?")
      .bind(organizationId)
      .run();

  it("is not served: store_required in Spanish, its deliveries refused for Meta to retry, and the operator's list says so", async () => {
    const owner = await createOwner();
    const organizationId = owner.organization.id;
    const { phoneNumberId } = await connectWhatsapp(organizationId);
    await leftInD1(organizationId);

    const res = await answer(api(owner.token).conversations.$get({ query: {} }));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      error: "store_required",
      message: expect.stringMatching(/^Los datos de tu organización aún no están en su almacén/),
    });
    const from = customerPhone();
    const failed = vi.spyOn(console, "error").mockImplementation(() => {});
    const delivered = await deliver(delivery(inboundMessage({ phoneNumberId, from })));
    failed.mockRestore();
    expect(delivered.status).toBe(500);
    expect(await orgFirst(organizationId, "SELECT id FROM conversations")).toBeNull();
    expect(await listedStore(organizationId)).toMatchObject({ state: "d1", served: false });
  });
});

describe("POST /api/v1/operator/stores/:id/restore", () => {
  const restore = (organizationId: string, body: unknown) =>
    exports.default.fetch(`http://localhost/api/v1/operator/stores/${organizationId}/restore`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${env.OPERATOR_TOKEN!}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(body),
    });
  const DAY_MS = 24 * 60 * 60_000;

  it("takes a moment of the last 30 days or an earlier restore's bookmark, and says locally that only Cloudflare's storage can", async () => {
    const owner = await createOwner();
    const id = owner.organization.id;
    for (const at of [Date.now() - 31 * DAY_MS, Date.now() + 60_000]) {
      const res = await restore(id, { at: new Date(at).toISOString() });
      expect(res.status, new Date(at).toISOString()).toBe(422);
      expect(JSON.stringify(await res.json())).toContain(
        "El momento debe estar dentro de los últimos 30 días.",
      );
    }
    expect((await restore(id, { at: "ayer" })).status).toBe(422);
    const unknown = await restore("no-existe", { at: new Date().toISOString() });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      message: "No hay ninguna organización no-existe.",
    });
    // workerd's storage has no point-in-time recovery: the route says so, and changes nothing.
    for (const body of [{ at: new Date(Date.now() - DAY_MS).toISOString() }, { bookmark: "x" }]) {
      const local = await restore(id, body);
      expect(local.status).toBe(501);
      expect(await local.json()).toMatchObject({ error: "restore_unsupported" });
    }
    expect((await answer(api(owner.token).organizations.me.$get())).status).toBe(200);
  });
});
