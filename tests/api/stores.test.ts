// Each organization's store (contract section 15, docs/decisions/0052): reached by the
// registry's store_id, serving one organization only, migrating its own schema when it wakes,
// listed for the operator, and an organization's data moved into it from D1 and back.
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
  STORE_SCHEMA_VERSION,
  type StoreMigration,
} from "../../durable-objects/store-migrations";
import { organizationStore } from "../../worker/stores/registry";
import { EXAMPLE_OPERATOR_TOKEN } from "../../worker/stores/operator-routes";
import { isEeaCountry } from "../../worker/stores/jurisdiction";
import { keepInD1, orgFirst, orgSql, orgSqlBatch, withOrgDb } from "../support/org-data";
import {
  beginAndCopy,
  changedRows,
  copyAll,
  move,
  operator,
  switchAndSync,
} from "../support/operator";
import { runCron } from "../support/cron";
import { RETENTION_CRON } from "../../worker/scheduled";
import { connectWhatsapp, seedMessage } from "../support/db";
import { addMember, createAgent, createConversation, createOwner } from "../support/factories";
import { drizzle } from "drizzle-orm/durable-sqlite";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  pageQuery,
  STORE_TABLE_NAMES,
  STORE_TABLES,
  withKeys,
} from "../../worker/stores/store-tables";
import { createDb, type OrganizationDb } from "../../worker/db/client";
import * as schema from "../../worker/db/schema";
import { relevantKnowledge } from "../../worker/knowledge/retrieval";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { connect } from "../support/sockets";
import { botMessages, runDueReplies } from "../support/replies";
import { customerPhone, deliver } from "../support/webhooks";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";

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
    expect(row).toMatchObject({
      state: "store",
      data_version: STORE_SCHEMA_VERSION,
      jurisdiction: null,
    });
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
    const scheduled = await runInDurableObject(storeOfA, (_, state) => state.storage.list());
    expect([...scheduled.keys()]).not.toContain("reply:conversacion-de-b");
    expect(await storeOfA.publish(a.organization.id, [event])).toBe(1);
    socketOfA.socket.close();
  });

  it("refuses work it holds under another organization's id, never running it on that one's data", async () => {
    const [a, b] = [await createOwner(), await createOwner()];
    // B's data in D1, where another store's work could reach it.
    await keepInD1(b.organization.id);
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
    // A reply of B's conversation in A's store (a key a restore brought back, say).
    await runInDurableObject(storeOfA, async (_, state) => {
      await state.storage.put(`reply:${conversation.id}`, {
        organizationId: b.organization.id,
        firstAt: Date.now(),
        dueAt: Date.now(),
        attempts: 0,
      });
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

    const res = await call("DELETE", "/api/v1/profiles/me", {
      token: owner.token,
      body: { password: owner.password },
    });
    expect(res.body.data).toEqual({ organization_deleted: true });
    expect((await socket.closed).code).toBe(4001);
    expect(await registryRow(owner.organization.id)).toBeNull();
    const erased = env.ORGANIZATION_HUB.getByName(storeId);
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
      await runInDurableObject(store, async (_, state) => {
        const [due] = await state.storage.list<{ dueAt: number }>({ prefix: "reply:" });
        const [key, reply] = due!;
        await state.storage.put(key, { ...reply, dueAt: Date.now() - 1 });
      });
      await runDurableObjectAlarm(store);
    };
    const left = () =>
      runInDurableObject(store, async (_, state) => [
        [...(await state.storage.list({ prefix: "reply:" })).keys()].length,
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
    expect(applied.map((m) => m.version)).toEqual(
      Array.from({ length: STORE_SCHEMA_VERSION }, (_, i) => i + 1),
    );
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

describe("migration 0014", () => {
  it("keeps each organization that exists on the object it already has", async () => {
    await reset();
    await applyD1Migrations(
      env.DB,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0014"),
    );
    const organizationId = crypto.randomUUID();
    const now = new Date().toISOString();
    await env.DB.prepare(
      `INSERT INTO organizations (id, name, industry, employee_count, services_offered,
         business_hours, city, country, ai_use_case, tracking_key, created_at, updated_at)
       VALUES (?1, 'Clínica', 'Salud', '1-10', 'Limpiezas', 'L-V 9-19', 'Madrid', 'España',
         'Atención', ?2, ?3, ?3)`,
    )
      .bind(organizationId, crypto.randomUUID().replaceAll("-", ""), now)
      .run();
    await applyD1Migrations(
      env.DB,
      env.TEST_MIGRATIONS.filter((m) => m.name >= "0014"),
    );
    expect(await registryRow(organizationId)).toMatchObject({
      store_id: organizationId,
      state: "d1",
      schema_version: 0,
    });
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
      stuck_parts: 0,
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

describe("an organization whose data is in its store", () => {
  const moveTo = (organizationId: string, state: "store" | "switching") =>
    env.DB.prepare(
      `UPDATE organization_stores SET state = ?, moving_to = ?, data_version = ?
       WHERE organization_id = ?`,
    )
      .bind(
        state,
        state === "switching" ? "store" : null,
        state === "store" ? STORE_SCHEMA_VERSION : 0,
        organizationId,
      )
      .run();

  it("gets its quick replies from its store, answered as before", async () => {
    const [moved, stayed] = [await createOwner(), await createOwner()];
    await keepInD1(stayed.organization.id);
    await moveTo(moved.organization.id, "store");
    const replies = api(moved.token)["quick-replies"];

    const created = await answer(
      replies.$post({ json: { shortcut: " Horario ", content: "De 9 a 19 h." } }),
    );
    expect(created).toMatchObject({ status: 201, body: { data: { shortcut: "horario" } } });
    const id = created.body.data.id;
    expect(
      await answer(replies.$post({ json: { shortcut: "horario", content: "Otra" } })),
    ).toMatchObject({
      status: 409,
      body: { error: "conflict", message: "Ya existe una respuesta rápida con ese atajo." },
    });
    const invalid = await call("POST", "/api/v1/quick-replies", {
      token: moved.token,
      body: { shortcut: "", content: "" },
    });
    expect(invalid.status).toBe(422);
    expect(
      await answer(replies[":id"].$patch({ param: { id }, json: { content: "De 9 a 20 h." } })),
    ).toMatchObject({ status: 200, body: { data: { id, content: "De 9 a 20 h." } } });
    const listed = await replies.$get();
    expect(listed.headers.get("X-Frame-Options")).toBe("SAMEORIGIN");
    expect((await listed.json()).data).toEqual([
      { id, shortcut: "horario", content: "De 9 a 20 h.", updated_at: expect.any(String) },
    ]);

    // Kept in the store's SQLite, not in D1.
    const { store_id: storeId } = (await registryRow(moved.organization.id))!;
    const inStore = await runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, s) =>
      s.storage.sql.exec("SELECT id, organization_id FROM quick_replies").toArray(),
    );
    expect(inStore).toEqual([{ id, organization_id: moved.organization.id }]);
    const inD1 = await env.DB.prepare("SELECT count(*) AS n FROM quick_replies WHERE id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(inD1!.n).toBe(0);

    // Another organization, still in D1, neither sees nor reaches them.
    const other = api(stayed.token)["quick-replies"];
    expect((await (await other.$get()).json()).data).toEqual([]);
    expect((await other[":id"].$patch({ param: { id }, json: { content: "Mío" } })).status).toBe(
      404,
    );
    expect((await replies[":id"].$delete({ param: { id } })).status).toBe(200);
    expect((await (await replies.$get()).json()).data).toEqual([]);
  });

  it("exports the quick replies its store holds", async () => {
    const owner = await createOwner();
    await moveTo(owner.organization.id, "store");
    const replies = api(owner.token)["quick-replies"];
    await replies.$post({ json: { shortcut: "horario", content: "De 9 a 19 h." } });
    const res = await call("GET", "/api/v1/profiles/me/export", { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data.organization.quick_replies).toEqual([
      expect.objectContaining({
        organizationId: owner.organization.id,
        shortcut: "horario",
        content: "De 9 a 19 h.",
      }),
    ]);
  });

  it("while switching, writes wait (503 store_moving, Retry-After) and reads keep working", async () => {
    const owner = await createOwner();
    await moveTo(owner.organization.id, "switching");
    const replies = api(owner.token)["quick-replies"];
    const write = await replies.$post({ json: { shortcut: "hola", content: "¡Hola!" } });
    expect(write.status).toBe(503);
    expect(write.headers.get("Retry-After")).toBe("60");
    expect(await write.json()).toMatchObject({ error: "store_moving" });
    expect((await replies.$get()).status).toBe(200);
  });
});

describe("moving an organization (npm run stores -- move)", () => {
  /**
   * An organization whose data is in D1, as every one made before organizations started in
   * their stores: put back in D1 before anything of it is written, so the API writes D1.
   */
  async function ownerInD1() {
    const owner = await createOwner();
    await keepInD1(owner.organization.id);
    return owner;
  }

  const shortcuts = async (token: string) =>
    ((await (await api(token)["quick-replies"].$get()).json()).data as { shortcut: string }[])
      .map((r) => r.shortcut)
      .sort();

  /** A write through the API that must succeed; answers its data. */
  async function written(method: string, path: string, token: string, body: unknown) {
    const res = await call(method, path, { token, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  }

  /**
   * A bit of everything an organization has, written while its data is in D1: an agent the
   * WhatsApp number answers with, a label on a conversation, a customer's message, a note
   * mentioning a member, knowledge, a tracking session, a sale, the sandbox's AI call and
   * usage; and what Meta's reports and webhooks leave (costs, spend, a template, a detected
   * sale), which no console call writes.
   */
  async function organizationWithEverything() {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const marta = await addMember(id, "agent");
    await written("PATCH", "/api/v1/profiles/me", marta.token, { full_name: "Marta López" });
    const agent = await createAgent(owner);
    await connectWhatsapp(id, { defaultAgentId: agent.id });
    const label = await written("POST", "/api/v1/labels", owner.token, {
      name: "VIP",
      color: "#dc2626",
    });
    const lucia = await createConversation(owner, {
      contact_name: "Lucía Fernández",
      agent_id: agent.id,
    });
    const other = await createConversation(owner, { contact_name: "Otro", priority: "urgent" });
    await written("PUT", `/api/v1/conversations/${lucia.id}/labels`, owner.token, {
      label_ids: [label.id],
    });
    await seedMessage(id, other.id, { content: "¿Tenéis cita para ortodoncia?" });
    await written("POST", `/api/v1/conversations/${lucia.id}/notes`, owner.token, {
      content: "Ojo @marta lopez, este cliente ya pagó",
    });
    await written("POST", "/api/v1/knowledge", owner.token, {
      title: "Horario",
      content: "Abrimos de lunes a viernes por la mañana.",
    });
    await written("POST", "/api/v1/tracking/sessions", owner.token, {
      tracking_params: { fbclid: "IwAR-traslado" },
      landing_page: "https://clinica.example/promo",
    });
    await written("POST", `/api/v1/conversations/${lucia.id}/sales`, owner.token, {
      value: 120,
      currency: "EUR",
    });
    await written("POST", `/api/v1/agents/${agent.id}/test`, owner.token, {
      messages: [{ role: "user", content: "Hola" }],
    });
    const now = new Date().toISOString();
    const today = now.slice(0, 10);
    const broadcastId = crypto.randomUUID();
    const followUpId = crypto.randomUUID();
    await orgSqlBatch(id, [
      {
        sql: `INSERT INTO message_costs (organization_id, day, category, country, volume, cost, fetched_at)
              VALUES (?1, ?2, 'service', 'ES', 4, 0.08, ?3), (?1, ?2, 'service', 'MX', 2, 0.02, ?3)`,
        params: [id, today, now],
      },
      {
        sql: "INSERT INTO message_cost_syncs (organization_id, day, fetched_at) VALUES (?, ?, ?)",
        params: [id, today, now],
      },
      {
        sql: `INSERT INTO ad_spend (organization_id, ad_id, day, ad_name, spend, currency, fetched_at)
              VALUES (?, 'ad-1', ?, 'Blanqueamiento', 12.5, 'EUR', ?)`,
        params: [id, today, now],
      },
      {
        sql: "INSERT INTO ad_spend_syncs (organization_id, day, fetched_at) VALUES (?, ?, ?)",
        params: [id, today, now],
      },
      {
        sql: `INSERT INTO whatsapp_templates (id, organization_id, meta_template_id, name, language,
                category, status, components, updated_at)
              VALUES (?, ?, 'tpl-1', 'bienvenida', 'es', 'MARKETING', 'APPROVED', ?, ?)`,
        params: [crypto.randomUUID(), id, JSON.stringify([{ type: "BODY", text: "Hola" }]), now],
      },
      {
        sql: `INSERT INTO conversion_suggestions (id, organization_id, conversation_id, wamid,
                event_name, value, currency, status, conversion_id, detected_at, created_at)
              SELECT ?1, ?2, ?3, 'wamid.detectado', 'Purchase', 120, 'EUR', 'confirmed', id, ?4, ?4
              FROM conversions WHERE organization_id = ?2 LIMIT 1`,
        params: [crypto.randomUUID(), id, lucia.id, now],
      },
      // A number shared with the WhatsApp Business app: its address book and a history import.
      {
        sql: `INSERT INTO phone_contacts (id, organization_id, phone_number, full_name, first_name,
                changed_at, created_at, updated_at)
              VALUES (?, ?, '34611222333', 'Lucía (clienta)', 'Lucía', ?3, ?3, ?3)`,
        params: [crypto.randomUUID(), id, now],
      },
      {
        sql: `INSERT INTO history_imports (id, organization_id, state, progress, messages,
                created_at, updated_at)
              VALUES (?, ?, 'importing', 40, 0, ?3, ?3)`,
        params: [crypto.randomUUID(), id, now],
      },
      {
        sql: `INSERT INTO history_pages (id, organization_id, phase, chunk_order, progress,
                thread_id, messages, received_at)
              VALUES (?, ?, 1, 2, 40, '34611222333', ?, ?)`,
        params: [crypto.randomUUID(), id, JSON.stringify([{ id: "wamid.historia" }]), now],
      },
      // Marketing consent: a customer who said BAJA.
      {
        sql: `INSERT INTO marketing_consents (id, organization_id, customer, opted_out_at, source,
                changed_at, created_at, updated_at)
              VALUES (?, ?, '34611222333', ?3, 'keyword', ?3, ?3, ?3)`,
        params: [crypto.randomUUID(), id, now],
      },
      // A broadcast of that template, and one recipient Meta delivered it to.
      {
        sql: `INSERT INTO broadcasts (id, organization_id, name, status, template_name,
                template_language, template_category, template_parameters, audience, created_at,
                updated_at)
              VALUES (?1, ?2, 'Promo de otoño', 'draft', 'bienvenida', 'es', 'MARKETING', '[]',
                '{"stages":["lead"]}', ?3, ?3)`,
        params: [broadcastId, id, now],
      },
      {
        sql: `INSERT INTO broadcast_recipients (broadcast_id, conversation_id, organization_id,
                state, wamid, sent_at, delivered_at, created_at, updated_at)
              VALUES (?1, ?2, ?3, 'delivered', 'wamid.difusion', ?4, ?4, ?4, ?4)`,
        params: [broadcastId, lucia.id, id, now],
      },
      // A follow-up rule, and what it sent to her.
      {
        sql: `INSERT INTO follow_ups (id, organization_id, name, enabled, no_reply_minutes,
                label_ids, stages, text, max_per_conversation, active_since, created_at, updated_at)
              VALUES (?1, ?2, 'Recordatorio', 1, 60, '[]', '[]', '¿Seguimos?', 1, ?3, ?3, ?3)`,
        params: [followUpId, id, now],
      },
      {
        sql: `INSERT INTO follow_up_sends (follow_up_id, conversation_id, organization_id,
                waited_since, state, sent_at, created_at)
              VALUES (?1, ?2, ?3, ?4, 'sent', ?4, ?4)`,
        params: [followUpId, lucia.id, id, now],
      },
      // A status whose send has not recorded its wamid yet.
      {
        sql: `INSERT INTO held_statuses (organization_id, wamid, status, payload, received_at)
              VALUES (?1, 'wamid.pronto', 'delivered', '{"id":"wamid.pronto"}', ?2)`,
        params: [id, now],
      },
    ]);
    return { owner, marta, agent, lucia };
  }

  /** What the API answers about the organization, wherever its data is. */
  async function answers(owner: { token: string }, marta: { token: string }, luciaId: string) {
    const read = async (path: string, token = owner.token) => {
      const res = await call("GET", `/api/v1${path}`, { token });
      expect(res.status, path).toBe(200);
      return res.body.data;
    };
    return {
      conversations: await read("/conversations"),
      stats: await read("/conversations/stats"),
      byMessage: await read("/conversations?search=ortodoncia"),
      byName: await read(`/conversations?search=${encodeURIComponent("lucía")}`),
      labelled: await read(`/conversations?label_id=${(await read("/labels"))[0]?.id}`),
      thread: await read(`/conversations/${luciaId}/messages`),
      conversions: await read(`/conversations/${luciaId}/conversions`),
      labels: await read("/labels"),
      agents: await read("/agents"),
      usage: await read("/agents/usage"),
      knowledge: await read("/knowledge"),
      mentions: await read("/mentions", marta.token),
      audit: await read("/organizations/audit-log"),
      broadcasts: await read("/broadcasts"),
      followUps: await read("/follow-ups"),
    };
  }

  /** The inbox tallies the store's or D1's triggers keep (those at zero aside). */
  const tallies = (rows: Record<string, unknown>[]) =>
    rows.filter((r) => r.n !== 0).sort((a, b) => String(a.tally).localeCompare(String(b.tally)));
  const tallySql = "SELECT tally, n FROM conversation_counts WHERE organization_id = ?";
  const d1Tallies = async (id: string) =>
    tallies((await env.DB.prepare(tallySql).bind(id).all()).results);
  const orgTallies = async (id: string) => tallies(await orgSql(id, tallySql, id));

  it("moves all of an organization's data to its store and back, answered the same", async () => {
    const { owner, marta, agent, lucia } = await organizationWithEverything();
    const id = owner.organization.id;
    // The sandbox's call is recorded beside its answer.
    await vi.waitFor(async () =>
      expect(
        (await orgFirst<{ n: number }>(
          id,
          "SELECT count(*) AS n FROM ai_calls WHERE organization_id = ?",
          id,
        ))!.n,
      ).toBe(1),
    );
    const inD1 = await answers(owner, marta, lucia.id);
    expect(inD1.byMessage.conversations).toHaveLength(1);
    expect(inD1.byName.conversations.map((c: { id: string }) => c.id)).toEqual([lucia.id]);
    expect(inD1.mentions.mentions).toHaveLength(1);

    const there = await move(id, "store");
    expect(there).toMatchObject({ moved: true, state: "store", differing: [] });
    expect(there.checks.map((c: { table: string }) => c.table)).toEqual(STORE_TABLE_NAMES);
    for (const check of there.checks) {
      expect(check.store, check.table).toEqual(check.d1);
      if (check.table !== "quick_replies")
        expect(check.store.count, check.table).toBeGreaterThan(0);
    }
    expect(await registryRow(id)).toMatchObject({
      state: "store",
      data_version: STORE_SCHEMA_VERSION,
    });

    // Served from the store now, answered as D1 answered; its tallies and search indexes
    // rebuilt by its own triggers.
    expect(await answers(owner, marta, lucia.id)).toEqual(inD1);
    expect(await orgTallies(id)).toEqual(await d1Tallies(id));
    expect(
      await orgSql(id, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", "ortodoncia"),
    ).toHaveLength(1);
    const knowledge = await withOrgDb(id, (orgDb) =>
      relevantKnowledge(orgDb, id, ["¿Qué horario tenéis los viernes?"], null),
    );
    expect(knowledge.map((k) => k.title)).toEqual(["Horario"]);
    // D1 keeps its rows (for a move back), and a write now goes to the store alone.
    const keptInD1 = await env.DB.prepare(
      "SELECT count(*) AS n FROM conversations WHERE organization_id = ?",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(keptInD1!.n).toBe(2);
    const added = await createConversation(owner, { contact_name: "Nueva en el almacén" });
    const inD1Now = await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE id = ?")
      .bind(added.id)
      .first<{ n: number }>();
    expect(inD1Now!.n).toBe(0);
    expect(await orgSql(id, "SELECT id FROM conversations WHERE id = ?", added.id)).toHaveLength(1);
    const inStore = await answers(owner, marta, lucia.id);
    expect(inStore.conversations.conversations).toHaveLength(3);
    const storeTallies = await orgTallies(id);

    const back = await move(id, "d1");
    expect(back).toMatchObject({ moved: true, state: "d1", differing: [] });
    for (const check of back.checks) expect(check.d1, check.table).toEqual(check.store);
    expect(await registryRow(id)).toMatchObject({ state: "d1", data_version: 0 });
    expect(await answers(owner, marta, lucia.id)).toEqual(inStore);
    expect(await d1Tallies(id)).toEqual(storeTallies);
    // The WhatsApp number still answers with its agent (D1's foreign key cleared it a moment).
    const number = await env.DB.prepare(
      "SELECT default_agent_id FROM whatsapp_connections WHERE organization_id = ?",
    )
      .bind(id)
      .first<{ default_agent_id: string }>();
    expect(number!.default_agent_id).toBe(agent.id);
  });

  it("moves to the store and back, with writes in between, losing and doubling nothing", async () => {
    const owner = await ownerInD1();
    const replies = api(owner.token)["quick-replies"];
    for (const shortcut of ["horario", "precio", "envio"]) {
      await replies.$post({ json: { shortcut, content: `Texto de ${shortcut}` } });
    }
    const there = await move(owner.organization.id, "store");
    expect(there).toMatchObject({ moved: true, state: "store" });
    const copied = there.checks.find((c: { table: string }) => c.table === "quick_replies");
    expect(copied.d1).toEqual(copied.store);
    expect(copied.store.count).toBe(3);
    expect(await registryRow(owner.organization.id)).toMatchObject({
      state: "store",
      data_version: STORE_SCHEMA_VERSION,
    });

    // Served by the store now: a write there is not in D1.
    const precio = (
      (await (await replies.$get()).json()).data as { id: string; shortcut: string }[]
    ).find((r) => r.shortcut === "precio")!;
    await replies[":id"].$delete({ param: { id: precio.id } });
    await replies.$post({ json: { shortcut: "gracias", content: "¡Gracias!" } });
    expect(await shortcuts(owner.token)).toEqual(["envio", "gracias", "horario"]);

    const back = await move(owner.organization.id, "d1");
    expect(back).toMatchObject({ moved: true, state: "d1" });
    for (const check of back.checks) expect(check.d1, check.table).toEqual(check.store);
    expect(await shortcuts(owner.token)).toEqual(["envio", "gracias", "horario"]);
    const inD1 = await env.DB.prepare(
      "SELECT shortcut FROM quick_replies WHERE organization_id = ? ORDER BY shortcut",
    )
      .bind(owner.organization.id)
      .all<{ shortcut: string }>();
    expect(inD1.results.map((r) => r.shortcut)).toEqual(["envio", "gracias", "horario"]);

    // And there again: the store's old rows are replaced, not added to.
    expect(await move(owner.organization.id, "store")).toMatchObject({ moved: true });
    expect(await shortcuts(owner.token)).toEqual(["envio", "gracias", "horario"]);
  });

  it("goes back where it was when a row was written behind its back, and says which table", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const conversation = await createConversation(owner);
    await seedMessage(id, conversation.id, { content: "Antes del traslado" });
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    expect(begun.body.data.tables).toEqual(STORE_TABLE_NAMES);
    await copyAll(id, begun.body.data.tables);
    // Writes are held while it switches.
    expect((await operator(`/stores/${id}/switch`)).status).toBe(200);
    const held = await call("POST", `/api/v1/conversations/${conversation.id}/notes`, {
      token: owner.token,
      body: { content: "Nota" },
    });
    expect(held.status).toBe(503);
    await copyAll(id, begun.body.data.tables);
    // A row only D1 has (a Worker that did not know of the move, in a deployment whose
    // routes outlived the wait): the check finds it.
    await env.DB.prepare(
      `INSERT INTO messages (id, organization_id, conversation_id, content, direction,
         sender_type, status, created_at)
       VALUES (?, ?, ?, 'Llegó tarde', 'inbound', 'customer', 'delivered', ?)`,
    )
      .bind(crypto.randomUUID(), id, conversation.id, new Date().toISOString())
      .run();
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(finished).toMatchObject({ moved: false, state: "d1", differing: ["messages"] });
    expect(finished.checks.find((c: { table: string }) => c.table === "messages")).toMatchObject({
      d1: { count: 2 },
      store: { count: 1 },
    });
    // Working where it was, with every row, and taking writes again.
    const thread = await call("GET", `/api/v1/conversations/${conversation.id}/messages`, {
      token: owner.token,
    });
    expect(thread.body.data.messages.map((m: { content: string }) => m.content)).toEqual([
      "Antes del traslado",
      "Llegó tarde",
    ]);
    expect(await registryRow(id)).toMatchObject({ state: "d1", data_version: 0 });
    const note = await call("POST", `/api/v1/conversations/${conversation.id}/notes`, {
      token: owner.token,
      body: { content: "Nota" },
    });
    expect(note.status).toBe(201);
  });

  it("copies while the organization works, then carries what changed meanwhile", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const conversation = await createConversation(owner);
    const first = await seedMessage(id, conversation.id, { content: "Hola" });
    const replies = api(owner.token)["quick-replies"];
    for (const shortcut of ["horario", "precio"]) {
      await replies.$post({ json: { shortcut, content: `Texto de ${shortcut}` } });
    }
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    const copied = await copyAll(id, begun.body.data.tables);
    expect(changedRows(copied)).toMatchObject({ conversations: 1, messages: 1, quick_replies: 2 });

    // Still served from D1 while copying: a new row, a changed one and a deleted one.
    expect(await registryRow(id)).toMatchObject({ state: "copying" });
    const note = await call("POST", `/api/v1/conversations/${conversation.id}/notes`, {
      token: owner.token,
      body: { content: "Llamar mañana" },
    });
    expect(note.status).toBe(201);
    await env.DB.prepare("UPDATE messages SET status = 'read' WHERE id = ?").bind(first.id).run();
    const precio = (
      (await (await replies.$get()).json()).data as { id: string; shortcut: string }[]
    ).find((r) => r.shortcut === "precio")!;
    expect((await replies[":id"].$delete({ param: { id: precio.id } })).status).toBe(200);

    const synced = await switchAndSync(id);
    // Only what was written since (the note, the status, the deleted reply, and what the note
    // changed on its conversation) is read again after the switch: no page of it.
    expect(synced).toEqual({
      messages: { synced: 2, changed: 2, refused: 0 },
      quick_replies: { synced: 1, changed: 1, refused: 0 },
    });
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(finished).toMatchObject({ moved: true, state: "store", differing: [] });

    const thread = await call("GET", `/api/v1/conversations/${conversation.id}/messages`, {
      token: owner.token,
    });
    expect(
      thread.body.data.messages.map((m: { content: string; status: string }) => [
        m.content,
        m.status,
      ]),
    ).toEqual([
      ["Hola", "read"],
      ["Llamar mañana", expect.any(String)],
    ]);
    expect(await shortcuts(owner.token)).toEqual(["horario"]);
  });

  it("carries a unique value handed from one row to another while it copied", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const replies = api(owner.token)["quick-replies"];
    const add = async (shortcut: string) =>
      (
        (await (await replies.$post({ json: { shortcut, content: shortcut } })).json()) as {
          data: { id: string };
        }
      ).data.id;
    const older = await add("precios");
    const newer = await add("precio");
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    await copyAll(id, begun.body.data.tables);
    // The newer gives its shortcut up, the older takes it: the older row goes first in key order.
    const rename = (replyId: string, shortcut: string) =>
      env.DB.prepare("UPDATE quick_replies SET shortcut = ? WHERE id = ?")
        .bind(shortcut, replyId)
        .run();
    await rename(newer, "precio-viejo");
    await rename(older, "precio");

    await switchAndSync(id);
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(finished).toMatchObject({ moved: true, state: "store", differing: [] });
    expect(await shortcuts(owner.token)).toEqual(["precio", "precio-viejo"]);
  });

  it("finds a value changed behind its back after the last copy, not only a row", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const conversation = await createConversation(owner);
    const message = await seedMessage(id, conversation.id, { content: "Precio: 20 €" });
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    await copyAll(id, begun.body.data.tables);
    await switchAndSync(id);
    await env.DB.prepare("UPDATE messages SET content = 'Precio: 25 €' WHERE id = ?")
      .bind(message.id)
      .run();
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(finished).toMatchObject({ moved: false, state: "d1", differing: ["messages"] });
    // The same count on both sides: D1 recorded the row written since its last copy.
    const check = finished.checks.find((c: { table: string }) => c.table === "messages");
    expect(check).toEqual({ table: "messages", d1: { count: 1 }, store: { count: 1 }, pending: 1 });
  });

  it("copies again a page the store refused, checked page by page, without reading every page after the switch", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const conversation = await createConversation(owner);
    const refused = await seedMessage(id, conversation.id, { content: "Rechazado una vez" });
    await seedMessage(id, conversation.id, { content: "Aceptado" });
    const { store_id: storeId } = (await registryRow(id))!;
    const storeSql = (query: string) =>
      runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, state) =>
        state.storage.sql.exec(query).toArray(),
      );
    // The store refuses one row of the page, as a full disk or a bug would, once.
    await storeSql(`CREATE TRIGGER refuse_for_test BEFORE INSERT ON messages
      WHEN NEW.id = '${refused.id}' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`);
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    const pages = await copyAll(id, begun.body.data.tables);
    expect(pages.messages).toEqual([{ copied: 2, changed: 1, refused: 1, next: null }]);
    await storeSql("DROP TRIGGER refuse_for_test");

    // Nothing was written in D1 since: only the page that did not match is read again.
    expect(await switchAndSync(id)).toEqual({ messages: { synced: 2, changed: 1, refused: 0 } });
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(finished).toMatchObject({ moved: true, state: "store", differing: [] });
    expect(await orgSql(id, "SELECT content FROM messages ORDER BY content")).toEqual([
      { content: "Aceptado" },
      { content: "Rechazado una vez" },
    ]);
    // The keys D1 recorded for the move are gone with it.
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM move_changes WHERE organization_id = ?",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("reads a page and the rows of written keys by the key's index on both sides, never sorting or scanning the organization's rows", async () => {
    const owner = await createOwner();
    const id = owner.organization.id;
    const { store_id: storeId } = (await registryRow(id))!;
    // A page after a cursor, and two keys, as a step of the move's changes asks for many.
    const queries = (db: OrganizationDb) =>
      STORE_TABLE_NAMES.flatMap((table) => {
        const key = STORE_TABLES[table].key.map(() => "0");
        const after = key.length === 1 ? "0" : JSON.stringify(key);
        const keyed = db
          .select()
          .from(STORE_TABLES[table].table as SQLiteTable)
          .where(withKeys(db, table, id, [key, key]));
        return [
          { name: `${table} page`, ...pageQuery(db, id, table, after, 500).toSQL() },
          { name: `${table} keys`, ...keyed.toSQL() },
        ];
      });
    const inStore = await runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, state) =>
      queries(drizzle(state.storage, { schema })).map(({ name, sql, params }) => ({
        name: `store: ${name}`,
        steps: state.storage.sql.exec(`EXPLAIN QUERY PLAN ${sql}`, ...params).toArray(),
      })),
    );
    const inD1 = await Promise.all(
      queries(createDb(env.DB)).map(async ({ name, sql, params }) => ({
        name: `D1: ${name}`,
        steps: (
          await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .bind(...params)
            .all()
        ).results,
      })),
    );
    for (const { name, steps } of [...inStore, ...inD1]) {
      const details = steps.map((step) => String(step.detail)).join("; ");
      expect(details, name).toMatch(/SEARCH/);
      // A page never sorts; a few keys may sort what they found (a handful of rows).
      if (name.endsWith("page")) expect(details, name).not.toMatch(/TEMP B-TREE/);
      expect(details, name).not.toMatch(/\bSCAN\b/);
      // In D1 the organization's test alone would cross all its rows (history_imports has one).
      if (!name.includes("history_imports")) {
        expect(details, name).not.toMatch(/\(organization_id=\?\)/);
      }
    }
  });

  it("moves an organization moved when its store held only quick replies, copying only the rest", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    const conversation = await createConversation(owner, { contact_name: "Lucía Fernández" });
    // Moved at version 2: its quick replies are in its store, everything else in D1.
    await env.DB.prepare(
      "UPDATE organization_stores SET state = 'store', data_version = 2 WHERE organization_id = ?",
    )
      .bind(id)
      .run();
    const replies = api(owner.token)["quick-replies"];
    expect(
      (await replies.$post({ json: { shortcut: "horario", content: "De 9 a 19 h." } })).status,
    ).toBe(201);

    const finished = await move(id, "store");
    expect(finished).toMatchObject({ moved: true, state: "store", differing: [] });
    expect(finished.checks.map((c: { table: string }) => c.table)).toEqual(
      STORE_TABLE_NAMES.filter((table) => table !== "quick_replies"),
    );
    expect(await registryRow(id)).toMatchObject({ data_version: STORE_SCHEMA_VERSION });
    // Its quick replies stayed as they were; the rest came from D1.
    expect(await shortcuts(owner.token)).toEqual(["horario"]);
    const listed = await call("GET", "/api/v1/conversations", { token: owner.token });
    expect(listed.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([
      conversation.id,
    ]);
    expect(await orgSql(id, "SELECT id FROM conversations")).toEqual([{ id: conversation.id }]);
  });

  it("pages a table without an id by its key, every row once", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    // 1,201 days' costs by category and country: more than two pages, ordered by three columns.
    await orgSql(
      id,
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
       INSERT INTO message_costs (organization_id, day, category, country, volume, cost, fetched_at)
       SELECT ?1, date('2026-01-01', '+' || (i / 40) || ' days'),
         CASE i % 2 WHEN 0 THEN 'service' ELSE 'marketing' END, printf('C%02d', (i / 2) % 20),
         i, i / 100.0, '2026-04-01T00:00:00.000Z'
       FROM n`,
      id,
    );
    const costsSql = `SELECT day, category, country, volume, cost FROM message_costs
      WHERE organization_id = ? ORDER BY day, category, country`;
    const inD1 = (await env.DB.prepare(costsSql).bind(id).all()).results;
    expect(inD1).toHaveLength(1201);

    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    const pages = (await copyAll(id, begun.body.data.tables)).message_costs!;
    expect(pages.map((page) => page.copied)).toEqual([500, 500, 201]);
    // The cursor is the last row's key: day, category and country.
    expect(JSON.parse(pages[0]!.next!)).toEqual([
      expect.stringMatching(/^2026-01-13$/),
      expect.any(String),
      expect.any(String),
    ]);
    // Nothing written since: nothing is read again after the switch.
    expect(await switchAndSync(id)).toEqual({});
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(finished).toMatchObject({ moved: true, state: "store" });
    expect(finished.checks.find((c: { table: string }) => c.table === "message_costs")).toEqual({
      table: "message_costs",
      d1: { count: 1201 },
      store: { count: 1201 },
      pending: 0,
    });
    expect(await orgSql(id, costsSql, id)).toEqual(inD1);
  });

  it("passes over an organization whose store holds everything, holding none of its writes", async () => {
    const owner = await createOwner();
    const id = owner.organization.id;
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    expect(begun).toMatchObject({ status: 200, body: { data: { tables: [], copy_from: null } } });
    expect(await registryRow(id)).toMatchObject({ state: "store", moving_to: null });
    expect(
      (await api(owner.token)["quick-replies"].$post({ json: { shortcut: "a", content: "b" } }))
        .status,
    ).toBe(201);
  });

  it("refuses a step out of order, and an organization that does not exist", async () => {
    const owner = await ownerInD1();
    const id = owner.organization.id;
    expect(
      (await operator(`/stores/${id}/copy`, { table: "quick_replies", after: "" })).status,
    ).toBe(409);
    expect((await operator(`/stores/${id}/finish`)).status).toBe(409);
    expect((await operator(`/stores/${id}/move`, { to: "d1" })).status).toBe(409);
    expect((await operator(`/stores/${id}/move`, { to: "luna" })).status).toBe(422);
    expect((await operator(`/stores/${id}/copy`, { table: "users", after: "" })).status).toBe(422);
    expect(
      (await operator(`/stores/${id}/copy`, { table: "conversation_labels", after: "roto" }))
        .status,
    ).toBe(409);
    expect((await operator(`/stores/${crypto.randomUUID()}/move`, { to: "store" })).status).toBe(
      404,
    );
    expect((await operator(`/stores/${id}/switch`)).status).toBe(409);
    await operator(`/stores/${id}/move`, { to: "store" });
    // Checked only once it has switched: what it copied so far may be behind already.
    expect((await operator(`/stores/${id}/finish`)).status).toBe(409);
    expect(
      (await operator(`/stores/${id}/copy`, { table: "conversation_labels", after: "roto" }))
        .status,
    ).toBe(400);
    expect((await operator(`/stores/${id}/abort`)).body.data).toEqual({ state: "d1" });
  });

  it("never reads another organization's store as an empty one: the move fails and stays undone", async () => {
    const owner = await createOwner();
    const id = owner.organization.id;
    await createConversation(owner);
    // A registry pointing at another organization's store (a restore gone wrong, say): the
    // two organizations' store ids swapped.
    const other = (await createOwner()).organization.id;
    const [mine, theirs] = [
      (await registryRow(id))!.store_id,
      (await registryRow(other))!.store_id,
    ];
    const pointAt = (organizationId: string, storeId: string) =>
      env.DB.prepare("UPDATE organization_stores SET store_id = ? WHERE organization_id = ?").bind(
        storeId,
        organizationId,
      );
    await env.DB.batch([pointAt(id, "swap"), pointAt(other, mine), pointAt(id, theirs)]);

    expect((await operator(`/stores/${id}/move`, { to: "d1" })).status).toBe(200);
    expect(
      (await operator(`/stores/${id}/copy`, { table: "conversations", after: "" })).status,
    ).toBe(500);
    expect((await operator(`/stores/${id}/switch`)).status).toBe(200);
    // Its checks read nothing from a store that is not its own: no "equal", no move to D1.
    expect((await operator(`/stores/${id}/finish`)).status).toBe(500);
    expect(await registryRow(id)).toMatchObject({ state: "switching", moving_to: "d1" });
    expect((await operator(`/stores/${id}/abort`)).body.data).toEqual({ state: "store" });
  });
});

describe("D1's copy of a moved organization", () => {
  const DAY_MS = 24 * 60 * 60_000;
  const rowsInD1 = async (organizationId: string) => {
    const counts: Record<string, number> = {};
    for (const table of ["conversations", "messages", "agents"]) {
      const row = await env.DB.prepare(
        `SELECT count(*) AS n FROM ${table} WHERE organization_id = ?`,
      )
        .bind(organizationId)
        .first<{ n: number }>();
      counts[table] = row!.n;
    }
    return counts;
  };
  const copyUntil = async (organizationId: string) =>
    (await registryRow(organizationId))!.d1_copy_until as string | null;
  /**
   * The daily runs it takes at `at` to remove this organization's copy: each removes a bounded
   * part of every copy due (200 statements), earliest first, and other tests leave copies too.
   */
  async function dailyRunsUntilRemoved(organizationId: string, at: number) {
    for (let run = 0; run < 20 && (await copyUntil(organizationId)) !== null; run++) {
      await runCron(RETENTION_CRON, at);
    }
  }

  it("is kept 30 days after the move, then removed by the daily cron; the store keeps all", async () => {
    const moved = await createOwner();
    await keepInD1(moved.organization.id);
    await createAgent(moved, { name: "Recepción" });
    const conversation = await createConversation(moved);
    await seedMessage(moved.organization.id, conversation.id, { content: "Hola, ¿abrís hoy?" });
    expect(await move(moved.organization.id, "store")).toMatchObject({ moved: true });

    const until = Date.parse((await copyUntil(moved.organization.id))!);
    expect(until - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * DAY_MS);
    const before = await rowsInD1(moved.organization.id);
    expect(before).toEqual({ conversations: 1, messages: 1, agents: 1 });

    // The day before: kept.
    await runCron(RETENTION_CRON, until - DAY_MS);
    expect(await rowsInD1(moved.organization.id)).toEqual(before);

    // Its day: gone from D1, still all in the store, and nothing left to remove.
    await dailyRunsUntilRemoved(moved.organization.id, until + 1000);
    expect(await rowsInD1(moved.organization.id)).toEqual({
      conversations: 0,
      messages: 0,
      agents: 0,
    });
    const counts = await env.DB.prepare(
      "SELECT count(*) AS n FROM conversation_counts WHERE organization_id = ?",
    )
      .bind(moved.organization.id)
      .first<{ n: number }>();
    expect(counts!.n).toBe(0);
    expect(await copyUntil(moved.organization.id)).toBeNull();
    const [stored] = await orgSql(
      moved.organization.id,
      "SELECT (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM agents) AS agents",
    );
    expect(stored).toEqual({ conversations: 1, messages: 1, agents: 1 });

    // An organization moved back keeps no date: D1 is where its data is.
    const back = await createOwner();
    await keepInD1(back.organization.id);
    await createConversation(back);
    await move(back.organization.id, "store");
    await move(back.organization.id, "d1");
    expect(await copyUntil(back.organization.id)).toBeNull();
    await runCron(RETENTION_CRON, until + DAY_MS);
    expect((await rowsInD1(back.organization.id)).conversations).toBe(1);
  });

  it("is what a move back abandoned leaves too: kept 30 days, then removed; the store keeps all", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    await createAgent(owner, { name: "Recepción" });
    const conversation = await createConversation(owner);
    await seedMessage(orgId, conversation.id, { content: "¿Tenés turno el lunes?" });
    await beginAndCopy(orgId, "d1");
    expect((await operator(`/stores/${orgId}/abort`)).body.data).toEqual({ state: "store" });

    const until = Date.parse((await copyUntil(orgId))!);
    expect(until - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect(await rowsInD1(orgId)).toEqual({ conversations: 1, messages: 1, agents: 1 });
    await dailyRunsUntilRemoved(orgId, until + 1000);
    expect(await rowsInD1(orgId)).toEqual({ conversations: 0, messages: 0, agents: 0 });
    expect(await copyUntil(orgId)).toBeNull();
    const [stored] = await orgSql(
      orgId,
      "SELECT (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM messages) AS messages",
    );
    expect(stored).toEqual({ conversations: 1, messages: 1 });
  });
});

describe("a store's copy of an organization moved back to D1", () => {
  const DAY_MS = 24 * 60 * 60_000;
  it("is kept 30 days, then removed by the store's own job; D1 keeps all, and a move again copies it", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    await createAgent(owner, { name: "Recepción" });
    const conversation = await createConversation(owner);
    await seedMessage(orgId, conversation.id, { content: "Hola, ¿abrís hoy?" });
    const store = await organizationStore(env, orgId);
    const inStore = () =>
      runInDurableObject(store, (_, state) =>
        state.storage.sql
          .exec<{ conversations: number; messages: number; agents: number; counts: number }>(
            `SELECT (SELECT count(*) FROM conversations) AS conversations,
               (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM agents) AS agents,
               (SELECT count(*) FROM conversation_counts) AS counts`,
          )
          .one(),
      );
    const job = () =>
      runInDurableObject(store, (_, state) =>
        state.storage.get<{ dueAt: number }>("job:store_copy"),
      );
    const runJobNow = async () => {
      await runInDurableObject(store, async (_, state) => {
        const due = await state.storage.get<{ dueAt: number }>("job:store_copy");
        await state.storage.put("job:store_copy", { ...due, dueAt: Date.now() - 1 });
      });
      await runDurableObjectAlarm(store);
    };

    // While the data is in the store, the job (run by mistake) removes nothing.
    await store.scheduleJob(orgId, "store_copy", Date.now());
    await runJobNow();
    expect(await inStore()).toMatchObject({ conversations: 1, messages: 1, agents: 1 });

    expect(await move(orgId, "d1")).toMatchObject({ moved: true, state: "d1" });
    const due = (await job())!.dueAt;
    expect(due - Date.now()).toBeGreaterThan(29 * DAY_MS);
    expect(await inStore()).toMatchObject({ conversations: 1, messages: 1, agents: 1 });
    // A later move back gives it the later date, not the earlier one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await move(orgId, "store")).toMatchObject({ moved: true, state: "store" });
    expect(await move(orgId, "d1")).toMatchObject({ moved: true, state: "d1" });
    expect((await job())!.dueAt).toBeGreaterThan(due);

    // Its day: gone from the store, all still in D1, the job done.
    await runJobNow();
    expect(await inStore()).toEqual({ conversations: 0, messages: 0, agents: 0, counts: 0 });
    expect(await job()).toBeUndefined();
    const [inD1] = await orgSql<{ n: number }>(
      orgId,
      `SELECT (SELECT count(*) FROM messages WHERE organization_id = ?1)
         + (SELECT count(*) FROM agents WHERE organization_id = ?1) AS n`,
      orgId,
    );
    expect(inD1!.n).toBe(2);

    // A move again copies everything.
    expect(await move(orgId, "store")).toMatchObject({ moved: true, state: "store" });
    expect(await inStore()).toMatchObject({ conversations: 1, messages: 1, agents: 1 });
  });
  it("of the tables still in D1 goes too, after a move abandoned by an organization whose store holds only part of its data", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    await keepInD1(orgId);
    const conversation = await createConversation(owner);
    await seedMessage(orgId, conversation.id, { content: "Hola, ¿hacen envíos?" });
    // Moved at store migration 2: its quick replies are in its store, everything else in D1.
    await env.DB.prepare(
      "UPDATE organization_stores SET state = 'store', data_version = 2 WHERE organization_id = ?",
    )
      .bind(orgId)
      .run();
    const reply = await api(owner.token)["quick-replies"].$post({
      json: { shortcut: "envios", content: "Enviamos a todo el país." },
    });
    expect(reply.status).toBe(201);
    await beginAndCopy(orgId, "store");
    expect((await operator(`/stores/${orgId}/abort`)).body.data).toEqual({ state: "store" });

    const store = await organizationStore(env, orgId);
    const inStore = () =>
      runInDurableObject(store, (_, state) =>
        state.storage.sql
          .exec(
            `SELECT (SELECT count(*) FROM conversations) AS conversations,
               (SELECT count(*) FROM messages) AS messages,
               (SELECT count(*) FROM conversation_counts) AS counts,
               (SELECT count(*) FROM quick_replies) AS quick_replies`,
          )
          .one(),
      );
    const copied = await inStore();
    expect(copied).toMatchObject({ conversations: 1, messages: 1, quick_replies: 1 });
    expect(copied.counts).toBeGreaterThan(0);
    const job = await runInDurableObject(store, (_, state) =>
      state.storage.get<{ dueAt: number }>("job:store_copy"),
    );
    expect(job!.dueAt - Date.now()).toBeGreaterThan(29 * DAY_MS);
    await runInDurableObject(store, (_, state) =>
      state.storage.put("job:store_copy", { ...job, dueAt: Date.now() - 1 }),
    );
    await runDurableObjectAlarm(store);

    // The copy is gone; the quick replies it serves stay, and D1 keeps the rest.
    expect(await inStore()).toEqual({ conversations: 0, messages: 0, counts: 0, quick_replies: 1 });
    const inD1 = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages WHERE organization_id = ?",
    )
      .bind(orgId)
      .first<{ n: number }>();
    expect(inD1!.n).toBe(1);
    const listed = await call("GET", "/api/v1/conversations", { token: owner.token });
    expect(listed.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([
      conversation.id,
    ]);
  });
});
