// Hand-built requests here are the subject: bodies invalid on purpose, and file uploads.
// Issue 18, knowledge: what the business writes or imports, found by full-text search and
// given to its agents (server-contract §11), never another organization's.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { compressedTextPdf, inflatingPdf, scannedPdf, textPdf } from "../fixtures/pdf";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner, addMember } from "../support/factories";
import { answer, api } from "../support/api";
import { call, type ApiResponse } from "../support/http";
import { orgFirst, orgSql, withOrgDb } from "../support/org-data";
import { runDueReplies } from "../support/replies";
import { deliver, modelRequests } from "../support/webhooks";
import { relevantKnowledge } from "../../durable-objects/knowledge/retrieval";
import { systemPrompt } from "../../durable-objects/agents/replies";
import { organizationStore } from "../../worker/stores/registry";

type Owner = Awaited<ReturnType<typeof createOwner>>;

/** What the agents' search finds for these texts, in the organization's data. */
const relevant = (organizationId: string, texts: string[], ids: string[] | null) =>
  withOrgDb(organizationId, (orgDb) => relevantKnowledge(orgDb, organizationId, texts, ids));

async function addEntry(owner: Owner, title: string, content: string) {
  const res = await answer(api(owner.token).knowledge.$post({ json: { title, content } }));
  expect(res.status).toBe(201);
  return res.body.data;
}

async function importFile(
  token: string,
  parts: (string | Uint8Array<ArrayBuffer>)[],
  name: string,
  type: string,
): Promise<ApiResponse<any>> {
  const form = new FormData();
  form.append("file", new File(parts, name, { type }));
  const response = await exports.default.fetch("http://localhost/api/v1/knowledge/import", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The system prompt of the model request whose messages contain `text`. */
async function promptWith(text: string): Promise<string> {
  const request = (await modelRequests()).findLast((r) =>
    JSON.stringify(r.body.messages).includes(text),
  );
  return request.body.messages[0].content;
}

const sandbox = (owner: Owner, agentId: string, content: string) =>
  answer(
    api(owner.token).agents[":id"].test.$post({
      param: { id: agentId },
      json: { messages: [{ role: "user", content }] },
    }),
  );

describe("knowledge entries", () => {
  it("are created, listed, edited and deleted by owners and admins; members only read", async () => {
    const owner = await createOwner();
    const admin = await addMember(owner.organization.id, "admin");
    const agent = await addMember(owner.organization.id, "agent");

    const created = await answer(
      api(admin.token).knowledge.$post({
        json: { title: " Horario ", content: " Abrimos de 9 a 19. " },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      title: "Horario",
      content: "Abrimos de 9 a 19.",
      file_name: null,
    });
    const id = created.body.data.id;

    const listed = await answer(api(agent.token).knowledge.$get({ query: {} }));
    expect(listed.status).toBe(200);
    expect(listed.body.data.entries.map((e: { id: string }) => e.id)).toEqual([id]);

    const asAgent = api(agent.token).knowledge;
    for (const [name, refused] of [
      ["POST", asAgent.$post({ json: { title: "x", content: "y" } })],
      ["PATCH", asAgent[":id"].$patch({ param: { id }, json: { title: "x" } })],
      ["DELETE", asAgent[":id"].$delete({ param: { id } })],
    ] as const) {
      expect((await refused).status, name).toBe(403);
    }
    const refusedImport = await importFile(agent.token, ["hola"], "a.txt", "text/plain");
    expect(refusedImport.status).toBe(403);

    const edited = await answer(
      api(owner.token).knowledge[":id"].$patch({
        param: { id },
        json: { content: "Abrimos de 10 a 20." },
      }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ title: "Horario", content: "Abrimos de 10 a 20." });

    const deleted = await answer(api(owner.token).knowledge[":id"].$delete({ param: { id: id } }));
    expect(deleted.status).toBe(200);
    const again = await answer(api(owner.token).knowledge[":id"].$delete({ param: { id: id } }));
    expect(again.status).toBe(404);

    const results = await orgSql(
      owner.organization.id,
      "SELECT action, target FROM audit_events WHERE organization_id = ? AND action LIKE 'knowledge.%' ORDER BY created_at, id",
      owner.organization.id,
    );
    expect(results).toEqual([
      { action: "knowledge.create", target: "Horario" },
      { action: "knowledge.update", target: "Horario" },
      { action: "knowledge.delete", target: "Horario" },
    ]);
  });

  it("lists each entry's beginning and size; the whole text is read one entry at a time", async () => {
    const owner = await createOwner();
    const agent = await addMember(owner.organization.id, "agent");
    const long = `Tarifas ${"ñandú ".repeat(15_000)}fin`;
    const entry = await addEntry(owner, "Tarifas", long);

    const listed = await answer(api(agent.token).knowledge.$get({ query: {} }));
    expect(listed.status).toBe(200);
    const [summary] = listed.body.data.entries;
    expect(summary).toMatchObject({ id: entry.id, title: "Tarifas", characters: long.length });
    expect(summary!.excerpt).toBe(long.slice(0, 240));
    expect(summary).not.toHaveProperty("content");
    expect(JSON.stringify(listed.body).length).toBeLessThan(2_000);

    const full = await answer(api(agent.token).knowledge[":id"].$get({ param: { id: entry.id } }));
    expect(full.status).toBe(200);
    expect(full.body.data).toMatchObject({ id: entry.id, content: long });
    const missing = await answer(
      api(agent.token).knowledge[":id"].$get({ param: { id: "no-existe" } }),
    );
    expect(missing.status).toBe(404);
  });

  it.each([
    [{ content: "x" }, ["title"]],
    [{ title: "  ", content: "  " }, ["title", "content"]],
    [{ title: "t".repeat(201), content: "x" }, ["title"]],
    [{ title: "t", content: "c".repeat(100_001) }, ["content"]],
    [{ title: 3, content: "x" }, ["title"]],
  ])("refuses %j naming %j (422)", async (body, paths) => {
    const owner = await createOwner();
    const res = await call("POST", "/api/v1/knowledge", { token: owner.token, body });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(paths);
  });

  it("keeps 100,000 characters, and an empty update is refused", async () => {
    const owner = await createOwner();
    const entry = await addEntry(owner, "Largo", "a".repeat(100_000));
    const empty = await answer(
      api(owner.token).knowledge[":id"].$patch({ param: { id: entry.id }, json: {} }),
    );
    expect(empty.status).toBe(422);
  });

  it("never shows, edits or deletes another organization's entries", async () => {
    const owner = await createOwner();
    const stranger = await createOwner();
    const entry = await addEntry(owner, "Precios", "Limpieza 50 €");
    const list = await answer(api(stranger.token).knowledge.$get({ query: {} }));
    expect(list.body.data.entries).toEqual([]);
    const edit = await answer(
      api(stranger.token).knowledge[":id"].$patch({
        param: { id: entry.id },
        json: { title: "Mío" },
      }),
    );
    expect(edit.status).toBe(404);
    const del = await answer(
      api(stranger.token).knowledge[":id"].$delete({ param: { id: entry.id } }),
    );
    expect(del.status).toBe(404);
    const read = await answer(
      api(stranger.token).knowledge[":id"].$get({ param: { id: entry.id } }),
    );
    expect(read.status).toBe(404);
    const mine = await answer(api(owner.token).knowledge.$get({ query: {} }));
    expect(mine.body.data.entries[0]).toMatchObject({ id: entry.id, title: "Precios" });
  });
});

describe("knowledge import", () => {
  it("reads .txt and .md as UTF-8, titled after the file", async () => {
    const owner = await createOwner();
    const txt = await importFile(
      owner.token,
      ["Envíos en 48 h.\r\n\r\n\r\n\r\nDevoluciones: 30 días."],
      "politica_envios.txt",
      "text/plain",
    );
    expect(txt.status).toBe(201);
    expect(txt.body.data).toMatchObject({
      title: "politica envios",
      content: "Envíos en 48 h.\n\nDevoluciones: 30 días.",
      file_name: "politica_envios.txt",
    });
    // Browsers send .md with any type (or none): the extension says what it is.
    const md = await importFile(owner.token, ["# Preguntas\n- ¿Aparcamiento? Sí."], "faq.md", "");
    expect(md.status).toBe(201);
    expect(md.body.data).toMatchObject({
      title: "faq",
      content: "# Preguntas\n- ¿Aparcamiento? Sí.",
    });
  });

  it("extracts a PDF's text on the Worker", async () => {
    const owner = await createOwner();
    const pdf = textPdf([
      "Lista de precios",
      "Limpieza dental: 50 euros",
      "Blanqueamiento (láser): 200 euros",
    ]);
    const res = await importFile(owner.token, [pdf], "Precios 2026.pdf", "application/pdf");
    expect(res.status).toBe(201);
    expect(res.body.data.title).toBe("Precios 2026");
    expect(res.body.data.content).toContain("Limpieza dental: 50 euros");
    expect(res.body.data.content).toContain("Blanqueamiento (láser): 200 euros");
  });

  it("reads a compressed PDF, and refuses one that inflates past 32 MB before PDF.js reads it (413)", async () => {
    const owner = await createOwner();
    const compressed = await compressedTextPdf(["Horario", "De lunes a viernes, de 9 a 19"]);
    const read = await importFile(owner.token, [compressed], "horario.pdf", "application/pdf");
    expect(read.status).toBe(201);
    expect(read.body.data.content).toContain("De lunes a viernes, de 9 a 19");

    const bomb = await inflatingPdf(40);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const refused = await importFile(owner.token, [bomb], "bomba.pdf", "application/pdf");
    expect(refused.status).toBe(413);
    expect(refused.body.message).toMatch(/^El PDF ocupa más de 32 MB una vez descomprimido/);
    // Junk after the data would stop a strict inflater before it counted the bomb: a stream
    // that does not inflate cleanly is refused, not left to PDF.js's lenient reading.
    const junk = await inflatingPdf(40, { junk: "basura" });
    const unreadable = await importFile(owner.token, [junk], "bomba.pdf", "application/pdf");
    expect(unreadable.status).toBe(422);
    expect(unreadable.body.message).toMatch(/No se pudo leer el PDF/);
    const list = await answer(api(owner.token).knowledge.$get({ query: {} }));
    expect(list.body.data.entries.map((e: { title: string }) => e.title)).toEqual(["horario"]);
  });

  it("measures a Flate stream named by PDF's abbreviation, and refuses compression it cannot measure (422)", async () => {
    const owner = await createOwner();
    // PDF.js inflates `/Fl` as it does `/FlateDecode`: the size check must count it too.
    const bomb = await inflatingPdf(40, { filter: "/Fl" });
    const refused = await importFile(owner.token, [bomb], "bomba.pdf", "application/pdf");
    expect(refused.status).toBe(413);
    const junk = await inflatingPdf(40, { filter: "/Fl", junk: "basura" });
    expect((await importFile(owner.token, [junk], "bomba.pdf", "application/pdf")).status).toBe(
      422,
    );
    for (const filter of ["/LZWDecode", "[/RL]", "6 0 R"]) {
      const unmeasured = await inflatingPdf(1, { filter });
      const res = await importFile(owner.token, [unmeasured], "raro.pdf", "application/pdf");
      expect(res.status, filter).toBe(422);
      expect(res.body.message).toMatch(/No se pudo leer el PDF/);
    }
    const list = await answer(api(owner.token).knowledge.$get({ query: {} }));
    expect(list.body.data.entries).toEqual([]);
  });

  it("refuses a PDF without text, a broken one, other types and empty files, in Spanish (422)", async () => {
    const owner = await createOwner();
    const scanned = await importFile(owner.token, [scannedPdf()], "escaneo.pdf", "application/pdf");
    expect(scanned.status).toBe(422);
    expect(scanned.body.message).toMatch(/no tiene texto/);
    const broken = await importFile(owner.token, ["%PDF-1.4 roto"], "roto.pdf", "application/pdf");
    expect(broken.status).toBe(422);
    expect(broken.body.message).toMatch(/No se pudo leer el PDF/);
    const image = await importFile(owner.token, ["GIF89a"], "foto.gif", "image/gif");
    expect(image.status).toBe(422);
    expect(image.body.message).toContain(".txt, .md o PDF");
    const empty = await importFile(owner.token, [""], "vacio.txt", "text/plain");
    expect(empty.status).toBe(422);
    const missing = await exports.default.fetch("http://localhost/api/v1/knowledge/import", {
      method: "POST",
      headers: { Authorization: `Bearer ${owner.token}` },
      body: new FormData(),
    });
    expect(missing.status).toBe(422);
    const list = await answer(api(owner.token).knowledge.$get({ query: {} }));
    expect(list.body.data.entries).toEqual([]);
  });

  it("says both caps: 5 MB per file (413) and 100,000 characters of text (422)", async () => {
    const owner = await createOwner();
    const long = await importFile(owner.token, ["a".repeat(100_001)], "largo.txt", "text/plain");
    expect(long.status).toBe(422);
    expect(long.body.message).toContain("100.000 caracteres");
    expect(long.body.message).toContain("5 MB");
    const big = await importFile(
      owner.token,
      [new Uint8Array(5 * 1024 * 1024 + 1).fill(97)],
      "enorme.txt",
      "text/plain",
    );
    expect(big.status).toBe(413);
    expect(big.body.message).toContain("5 MB");
    expect(big.body.message).toContain("100.000 caracteres");
  });
});

describe("knowledge in the agent's prompt", () => {
  it("gives the relevant entries, with their titles, and not the irrelevant ones", async () => {
    const owner = await createOwner();
    const prices = await addEntry(
      owner,
      "Precios de limpieza",
      "La limpieza dental cuesta 50 euros y dura 30 minutos.",
    );
    await addEntry(owner, "Aparcamiento", "Hay parking gratuito en la calle Mayor.");
    const agent = await createAgent(owner);

    const res = await sandbox(owner, agent.id, "¿Cuánto cuesta una LIMPIEZA?");
    expect(res.status).toBe(200);
    expect(res.body.data.sources).toEqual([{ id: prices.id, title: "Precios de limpieza" }]);

    const prompt = await promptWith("¿Cuánto cuesta una LIMPIEZA?");
    expect(prompt).toContain("Conocimiento del negocio");
    expect(prompt).toContain("[Entrada: Precios de limpieza]");
    expect(prompt).toContain("cuesta 50 euros");
    expect(prompt).not.toContain("parking");
  });

  it("ranks a word in the title above the same word in a text, and keeps the prompt's size bounded", async () => {
    const owner = await createOwner();
    const mention = await addEntry(owner, "Varios", "También hacemos ortodoncia invisible.");
    const titled = await addEntry(owner, "Ortodoncia", "Brackets y alineadores desde 1.500 euros.");
    const found = await relevant(owner.organization.id, ["ortodoncia"], null);
    expect(found.map((e) => e.id)).toEqual([titled.id, mention.id]);

    for (let i = 0; i < 8; i++) await addEntry(owner, `Implantes ${i}`, "implante ".repeat(600));
    const many = await relevant(owner.organization.id, ["implantes"], null);
    expect(many.length).toBeLessThanOrEqual(5);
    const size = many.reduce((n, e) => n + e.title.length + e.content.length, 0);
    expect(size).toBeLessThanOrEqual(6_000 + many.length); // plus an ellipsis for a cut entry
  });

  it("finds an entry in the singular or the plural, whichever the customer writes", async () => {
    const owner = await createOwner();
    const cleaning = await addEntry(owner, "Limpieza dental", "Cuesta 50 euros.");
    const implants = await addEntry(owner, "Implantes", "Desde 900 euros por pieza.");
    const org = owner.organization.id;
    const ids = async (text: string) => (await relevant(org, [text], null)).map((e) => e.id);
    expect(await ids("¿Hacéis limpiezas?")).toEqual([cleaning.id]);
    expect(await ids("¿Qué precio tiene un implante?")).toEqual([implants.id]);
    expect(await ids("Me faltan dos implantes")).toEqual([implants.id]);
  });

  it("treats what the customer writes as words, never as search syntax", async () => {
    const owner = await createOwner();
    const entry = await addEntry(owner, "Horario", "Abrimos los sábados de 10 a 14.");
    const found = await relevant(
      owner.organization.id,
      ['¿Abrís los SÁBADOS? "organization_id" NEAR(* OR) ^title: -horario'],
      null,
    );
    expect(found.map((e) => e.id)).toEqual([entry.id]);
    expect(await relevant(owner.organization.id, ["¿y?", '"*"'], null)).toEqual([]);
  });

  it("never puts another organization's entries in a prompt", async () => {
    const owner = await createOwner();
    const stranger = await createOwner();
    await addEntry(stranger, "Precios secretos", "Tarifa de blanqueamiento: 999 euros.");
    const agent = await createAgent(owner);
    const res = await sandbox(owner, agent.id, "Precio del blanqueamiento 9f3a");
    expect(res.body.data.sources).toEqual([]);
    expect(await promptWith("Precio del blanqueamiento 9f3a")).not.toContain("999");
    // Even a stranger's id in the agent's list: refused, so it can never reach the search.
    const stolen = (await answer(api(stranger.token).knowledge.$get({ query: {} }))).body.data
      .entries;
    const res2 = await answer(
      api(owner.token).agents[":id"].$patch({
        param: { id: agent.id },
        json: { knowledge_ids: [stolen[0]!.id] },
      }),
    );
    expect(res2.status).toBe(422);
    expect(res2.body.details).toEqual([
      { path: "knowledge_ids", message: "Alguna entrada de conocimiento no existe" },
    ]);
    expect(await relevant(owner.organization.id, ["blanqueamiento"], [stolen[0]!.id])).toEqual([]);
  });

  it("keeps the 'do not invent' rule with an empty knowledge base", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const res = await sandbox(owner, agent.id, "¿Tenéis stock del cepillo azul 7c1e?");
    expect(res.body.data.sources).toEqual([]);
    const prompt = await promptWith("cepillo azul 7c1e");
    expect(prompt).toContain("No hay entradas del negocio sobre lo que pregunta el cliente");
    expect(prompt).toContain("Si la respuesta no está ahí, di que no lo sabes");
    expect(prompt).toContain("handoff_to_human");
    expect(prompt).toContain("Nunca inventes precios, stock");
  });

  it("limits an agent to its entries; deleting one takes it out of the agent's list", async () => {
    const owner = await createOwner();
    const cleaning = await addEntry(owner, "Limpieza", "La limpieza cuesta 50 euros.");
    const whitening = await addEntry(owner, "Blanqueamiento", "La limpieza previa se incluye.");
    const limited = await createAgent(owner, { knowledge_ids: [whitening.id, whitening.id] });
    expect(limited.knowledge_ids).toEqual([whitening.id]);
    const all = await createAgent(owner);
    expect(all.knowledge_ids).toBeNull();

    const fromLimited = await sandbox(owner, limited.id, "precio limpieza");
    expect(fromLimited.body.data.sources).toEqual([{ id: whitening.id, title: "Blanqueamiento" }]);
    const fromAll = await sandbox(owner, all.id, "precio limpieza");
    expect(fromAll.body.data.sources.map((s: { id: string }) => s.id).sort()).toEqual(
      [cleaning.id, whitening.id].sort(),
    );

    await answer(api(owner.token).knowledge[":id"].$delete({ param: { id: whitening.id } }));
    const after = await answer(api(owner.token).agents[":id"].$get({ param: { id: limited.id } }));
    expect(after.body.data.knowledge_ids).toEqual([]);
    expect((await sandbox(owner, limited.id, "precio limpieza")).body.data.sources).toEqual([]);

    const back = await answer(
      api(owner.token).agents[":id"].$patch({
        param: { id: limited.id },
        json: { knowledge_ids: null },
      }),
    );
    expect(back.body.data.knowledge_ids).toBeNull();
    // A string for the list: a body the typed client would not let through.
    const bad = await call("PATCH", `/api/v1/agents/${limited.id}`, {
      token: owner.token,
      body: { knowledge_ids: "todo" },
    });
    expect(bad.status).toBe(422);
  });

  it("records the entries on the bot message it sends on WhatsApp (ai_sources)", async () => {
    const owner = await createOwner();
    const hours = await addEntry(owner, "Horario de verano", "En agosto abrimos de 8 a 15.");
    await addEntry(owner, "Seguros", "Trabajamos con Sanitas y Adeslas.");
    const agent = await createAgent(owner);
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
      defaultAgentId: agent.id,
    });
    const from = `3462${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "¿Qué horario tenéis en agosto?" })),
    );
    await runDueReplies(await organizationStore(env, owner.organization.id));

    const stored = await orgFirst<{ ai_sources: string; content: string }>(
      owner.organization.id,
      "SELECT m.ai_sources, m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.organization_id = ? AND c.phone_number = ? AND m.sender_type = 'bot'",
      owner.organization.id,
      from,
    );
    expect(JSON.parse(stored!.ai_sources)).toEqual([{ id: hours.id, title: "Horario de verano" }]);
    expect(stored!.content).toContain("Horario de verano"); // the fake quotes its first source

    const conversation = await orgFirst<{ id: string }>(
      owner.organization.id,
      "SELECT id FROM conversations WHERE organization_id = ? AND phone_number = ?",
      owner.organization.id,
      from,
    );
    const thread = await answer(
      api(owner.token).conversations[":id"].messages.$get({
        param: { id: conversation!.id },
        query: {},
      }),
    );
    const bot = thread.body.data.messages.find((m) => m.sender_type === "bot");
    expect(bot!.ai_sources).toEqual([{ id: hours.id, title: "Horario de verano" }]);
  });

  it("builds the section from what it is given, titles first", () => {
    const prompt = systemPrompt(
      {
        systemPrompt: "Eres Sofía.",
        canMarkLeads: false,
      } as Parameters<typeof systemPrompt>[0],
      { name: "Clínica" } as Parameters<typeof systemPrompt>[1],
      [{ id: "1", title: "Precios", content: "50 euros" }],
    );
    expect(prompt).toContain("[Entrada: Precios]\n50 euros");
  });
});
