// Each organization's store (contract section 15, docs/decisions/0052): reached by the
// registry's store_id, serving one organization only, migrating its own schema when it wakes,
// and listed for the operator.
import {
  applyD1Migrations,
  listDurableObjectIds,
  reset,
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
import { isEeaCountry } from "../../worker/stores/jurisdiction";
import { createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { connect } from "../support/sockets";

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
    expect(row).toMatchObject({ state: "d1", jurisdiction: null });
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
    const left = await runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, state) =>
      Promise.all([state.storage.list(), state.storage.getAlarm()]),
    );
    expect([[...left[0].keys()], left[1]]).toEqual([[], null]);
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
  const list = (token?: string, bindings = env) =>
    workerApp.request(
      "/api/v1/operator/stores",
      { headers: token ? { Authorization: `Bearer ${token}` } : {} },
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
      state: "d1",
      schema_version: expect.any(Number),
      bytes: expect.any(Number),
      messages: 0,
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
  const operator = async (path: string, body: unknown = {}) => {
    const res = await exports.default.fetch(`http://localhost/api/v1/operator${path}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${env.OPERATOR_TOKEN!}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  /** Every step of a move, as the command takes them; answers `finish`'s figures. */
  async function move(organizationId: string, to: "d1" | "store") {
    const begun = await operator(`/stores/${organizationId}/move`, { to });
    expect(begun.status).toBe(200);
    for (const table of begun.body.data.tables) {
      for (let after: string | null = ""; after !== null;) {
        const page = await operator(`/stores/${organizationId}/copy`, { table, after });
        expect(page.status).toBe(200);
        after = page.body.data.next;
      }
    }
    return (await operator(`/stores/${organizationId}/finish`)).body.data;
  }

  const shortcuts = async (token: string) =>
    ((await (await api(token)["quick-replies"].$get()).json()).data as { shortcut: string }[])
      .map((r) => r.shortcut)
      .sort();

  it("moves to the store and back, with writes in between, losing and doubling nothing", async () => {
    const owner = await createOwner();
    const replies = api(owner.token)["quick-replies"];
    for (const shortcut of ["horario", "precio", "envio"]) {
      await replies.$post({ json: { shortcut, content: `Texto de ${shortcut}` } });
    }
    const there = await move(owner.organization.id, "store");
    expect(there).toMatchObject({ moved: true, state: "store" });
    expect(there.checks).toEqual([
      {
        table: "quick_replies",
        d1: there.checks[0].store,
        store: expect.objectContaining({ count: 3 }),
      },
    ]);
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
    expect(back.checks[0].d1).toEqual(back.checks[0].store);
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

  it("goes back where it was when the figures differ, and says which", async () => {
    const owner = await createOwner();
    const replies = api(owner.token)["quick-replies"];
    await replies.$post({ json: { shortcut: "horario", content: "De 9 a 19 h." } });
    const id = owner.organization.id;
    const begun = await operator(`/stores/${id}/move`, { to: "store" });
    // Writes are held while it switches.
    expect((await replies.$post({ json: { shortcut: "x", content: "y" } })).status).toBe(503);
    await operator(`/stores/${id}/copy`, { table: "quick_replies", after: "" });
    // A row only D1 has (a Worker that did not know of the move, in a deployment whose
    // routes outlived the wait): the check finds it.
    await env.DB.prepare(
      `INSERT INTO quick_replies (id, organization_id, shortcut, content, created_at, updated_at)
       VALUES (?, ?, 'tarde', 'Llegó tarde', ?, ?)`,
    )
      .bind(crypto.randomUUID(), id, new Date().toISOString(), new Date().toISOString())
      .run();
    const finished = (await operator(`/stores/${id}/finish`)).body.data;
    expect(begun.body.data.tables).toEqual(["quick_replies"]);
    expect(finished).toMatchObject({ moved: false, state: "d1" });
    expect(finished.checks[0]).toMatchObject({ d1: { count: 2 }, store: { count: 1 } });
    expect(await shortcuts(owner.token)).toEqual(["horario", "tarde"]);
    expect((await replies.$post({ json: { shortcut: "x", content: "y" } })).status).toBe(201);
  });

  it("refuses a step out of order, and an organization that does not exist", async () => {
    const owner = await createOwner();
    const id = owner.organization.id;
    expect(
      (await operator(`/stores/${id}/copy`, { table: "quick_replies", after: "" })).status,
    ).toBe(409);
    expect((await operator(`/stores/${id}/finish`)).status).toBe(409);
    expect((await operator(`/stores/${id}/move`, { to: "d1" })).status).toBe(409);
    expect((await operator(`/stores/${id}/move`, { to: "luna" })).status).toBe(422);
    expect((await operator(`/stores/${id}/copy`, { table: "users", after: "" })).status).toBe(422);
    expect((await operator(`/stores/${crypto.randomUUID()}/move`, { to: "store" })).status).toBe(
      404,
    );
    await operator(`/stores/${id}/move`, { to: "store" });
    expect((await operator(`/stores/${id}/abort`)).body.data).toEqual({ state: "d1" });
  });
});
