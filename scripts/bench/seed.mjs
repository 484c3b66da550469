// Realistic data for the benchmarks, as SQL statements (much faster than going through the API):
// an organization's data runs in its store (server.mjs's `storeSql`, in the store's schema,
// durable-objects/migrations/), its WhatsApp number in D1 (`connectionSql`, a file
// applied with `wrangler d1 execute --file`). Deterministic: the same seed gives the same rows.

/** The message columns both seeds write (inbox and retention). */
const MESSAGE_COLUMNS = [
  "id",
  "organization_id",
  "conversation_id",
  "wamid",
  "type",
  "content",
  "direction",
  "sender_type",
  "status",
  "sent_at",
  "created_at",
];

const FIRST = (
  "Carmen María Lucía Paula Laura Marta Sara Ana Julia Elena Alba Irene Nerea Rocío " +
  "Javier Carlos Pablo Daniel David Sergio Jorge Alberto Hugo Mario Álvaro Diego Raúl Iván " +
  "Marcos Adrián Rubén Óscar Andrés Manuel Antonio Pedro Lorena Cristina Beatriz Noelia"
).split(" ");
const LAST = (
  "García Fernández González Rodríguez López Martínez Sánchez Pérez Gómez Martín " +
  "Jiménez Ruiz Hernández Díaz Moreno Muñoz Álvarez Romero Alonso Gutiérrez Navarro Torres " +
  "Domínguez Vázquez Ramos Gil Ramírez Serrano Blanco Molina Morales Suárez Ortega Delgado " +
  "Castro Ortiz Rubio Marín Sanz Iglesias"
).split(" ");
const INBOUND = [
  "Hola, ¿tenéis cita para mañana por la tarde?",
  "Buenas, quería saber el precio del tratamiento",
  "¿A qué hora abrís los sábados?",
  "Perfecto, muchas gracias",
  "¿Se puede pagar con tarjeta?",
  "Necesito cambiar mi reserva del jueves",
  "¿Hacéis envíos a Valencia?",
  "Me interesa el anuncio que vi en Instagram",
  "¿Cuánto tarda en llegar el pedido?",
  "Vale, entonces reservo para las 17:00",
  "Quiero pedir presupuesto para una reforma del baño",
  "¿Tenéis disponibilidad la semana que viene?",
];
const OUTBOUND = [
  "¡Hola! Claro, tenemos hueco a las 16:30 y a las 18:00. ¿Cuál te viene mejor?",
  "El precio es de 45 € la sesión, con descuento en el bono de cinco.",
  "Los sábados abrimos de 10:00 a 14:00.",
  "Sí, aceptamos tarjeta, Bizum y efectivo.",
  "Hecho, te lo cambiamos. ¡Gracias por avisar!",
  "Enviamos a toda la península en 24-48 horas.",
  "Te paso el enlace con toda la información.",
];
/** A rare word, in about 1 message of 200: what the text search benchmark looks for. */
export const RARE_WORD = "devolución";
const RARE = `Quiero tramitar la ${RARE_WORD} del último pedido, llegó dañado`;
const STATUSES = ["open", "open", "open", "pending", "assigned", "assigned", "closed", "closed"];
const PRIORITIES = ["low", "medium", "medium", "medium", "high", "urgent"];

/**
 * Small deterministic PRNG (mulberry32).
 * @param {number} seed
 */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** @type {<T>(random: () => number, list: T[]) => T} */
const pick = (random, list) => /** @type {any} */ (list[Math.floor(random() * list.length)]);
/** @param {unknown} value */
const q = (value) =>
  value === null || value === undefined ? "NULL" : `'${String(value).replaceAll("'", "''")}'`;
/** @param {number} n @param {number} width */
const hex = (n, width) => n.toString(16).padStart(width, "0");

/**
 * UUIDv7-shaped ids that sort by time, like worker/db/ids.ts.
 * @param {number} ms
 * @param {number} n
 */
function idAt(ms, n) {
  const h = hex(ms, 12) + hex(n % 0x1000000000000, 20);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Rows into multi-row INSERTs of at most `chunk` rows each (a store's SQL, like D1's, takes
 * statements under 100 KB).
 * @param {string} table
 * @param {string[]} columns
 * @param {string[][]} rows
 */
function inserts(table, columns, rows, chunk = 200) {
  const out = [];
  for (let i = 0; i < rows.length; i += chunk) {
    const values = rows.slice(i, i + chunk).map((r) => `(${r.join(",")})`);
    out.push(`INSERT INTO ${table} (${columns.join(",")}) VALUES\n${values.join(",\n")};`);
  }
  return out;
}

const DAY = 86_400_000;

/**
 * An organization's inbox: `conversations` customers with `messagesPer` messages each, over
 * the last `spanDays` days (all younger than the retention limit), a few agents, labels,
 * and a quarter of the conversations held by `assigneeId`.
 * Returns the SQL statements and what the read benchmarks need (ids, search terms).
 * @param {{ organizationId: string, assigneeId: string, conversations: number,
 *   messagesPer: number, seed: number, now: number, phonePrefix: number, spanDays?: number }} options
 */
export function inboxSql({
  organizationId,
  assigneeId,
  conversations,
  messagesPer,
  seed,
  now,
  phonePrefix,
  spanDays = 300,
}) {
  const random = prng(seed);
  const agents = Array.from({ length: 5 }, (_, i) => idAt(now - DAY * 400 + i, seed * 10 + i));
  const sql = inserts(
    "agents",
    ["id", "organization_id", "name", "system_prompt", "created_at", "updated_at"],
    agents.map((id, i) => [
      q(id),
      q(organizationId),
      q(`Agente ${i + 1}`),
      q("Eres un asistente."),
      q(new Date(now - DAY * 400).toISOString()),
      q(new Date(now - DAY * 400).toISOString()),
    ]),
  );
  // The team inbox: five labels, a third of the conversations labelled, a quarter held by
  // the organization's owner.
  const labels = Array.from({ length: 5 }, (_, i) => ({
    id: idAt(now - DAY * 400 + 10 + i, seed * 100 + i),
    name: `Etiqueta ${i + 1}`,
    color: "#0284c7",
  }));
  sql.push(
    ...inserts(
      "labels",
      ["id", "organization_id", "name", "color", "created_at", "updated_at"],
      labels.map((l) => [
        q(l.id),
        q(organizationId),
        q(l.name),
        q(l.color),
        q(new Date(now).toISOString()),
        q(new Date(now).toISOString()),
      ]),
    ),
  );
  const labelRows = [];
  const conversationRows = [];
  const messageRows = [];
  let messageSeq = 0;
  let sampleConversation = null;
  for (let c = 0; c < conversations; c++) {
    const last = now - Math.floor(random() * spanDays * DAY);
    const first = last - Math.floor(random() * 30 * DAY) - messagesPer * 60_000;
    const id = idAt(first, seed * 1_000_000 + c);
    const status = pick(random, STATUSES);
    const agentId = status === "assigned" || random() < 0.2 ? pick(random, agents) : null;
    const name = `${pick(random, FIRST)} ${pick(random, LAST)}`;
    const phone = String(phonePrefix + c * 7919);
    let preview = "";
    for (let m = 0; m < messagesPer; m++) {
      const at = first + Math.floor(((last - first) * m) / Math.max(1, messagesPer - 1));
      const inbound = m % 2 === 0 || random() < 0.3;
      const content = inbound
        ? random() < 0.005
          ? RARE
          : pick(random, INBOUND)
        : pick(random, OUTBOUND);
      preview = content.slice(0, 120);
      const iso = new Date(at).toISOString();
      messageRows.push([
        q(idAt(at, seed * 10_000_000 + messageSeq++)),
        q(organizationId),
        q(id),
        inbound ? q(`wamid.SEED${seed}.${messageSeq}`) : "NULL",
        q("text"),
        q(content),
        q(inbound ? "inbound" : "outbound"),
        q(inbound ? "customer" : random() < 0.5 ? "bot" : "agent"),
        q(inbound ? "read" : "delivered"),
        q(iso),
        q(iso),
      ]);
    }
    const lastIso = new Date(last).toISOString();
    const label = random() < 0.33 ? pick(random, labels) : null;
    if (label) labelRows.push([q(id), q(label.id), q(organizationId)]);
    conversationRows.push([
      q(id),
      q(organizationId),
      q(phone),
      q(name),
      q(status),
      q(pick(random, PRIORITIES)),
      random() < 0.15 ? String(1 + Math.floor(random() * 4)) : "0",
      q(status === "assigned" ? agentId : agentId && random() < 0.5 ? agentId : null),
      q(lastIso),
      q(preview),
      q(lastIso),
      q(new Date(first).toISOString()),
      q(lastIso),
      q(random() < 0.25 ? assigneeId : null),
      q(label ? JSON.stringify([label]) : null),
    ]);
    if (c === Math.floor(conversations / 2)) sampleConversation = id;
  }
  sql.push(
    ...inserts(
      "conversations",
      [
        "id",
        "organization_id",
        "phone_number",
        "contact_name",
        "status",
        "priority",
        "unread_count",
        "agent_id",
        "last_message_at",
        "last_message_preview",
        "last_inbound_at",
        "created_at",
        "updated_at",
        "assignee_id",
        "labels",
      ],
      conversationRows,
    ),
    ...inserts(
      "conversation_labels",
      ["conversation_id", "label_id", "organization_id"],
      labelRows,
    ),
    ...inserts("messages", MESSAGE_COLUMNS, messageRows),
  );
  return {
    sql,
    agentId: String(agents[0]),
    labelId: labels[0]?.id ?? "",
    sampleConversation,
    searchName: "Carmen",
    searchPhone: String(phonePrefix + 321 * 7919).slice(-7),
    searchText: RARE_WORD,
  };
}

/**
 * Data past the retention limit (three years old) in one organization: conversations with
 * their messages, tracking sessions and conversions pointing at both.
 * @param {{ organizationId: string, conversations: number, messagesPer: number, seed: number,
 *   now: number }} options
 */
export function expiredSql({ organizationId, conversations, messagesPer, seed, now }) {
  const random = prng(seed);
  const old = now - 3 * 365 * DAY;
  const conversationRows = [];
  const messageRows = [];
  const sessionRows = [];
  const conversionRows = [];
  let n = 0;
  for (let c = 0; c < conversations; c++) {
    const at = old - Math.floor(random() * 200 * DAY);
    const iso = new Date(at).toISOString();
    const id = idAt(at, seed * 1_000_000 + c);
    const sessionId = idAt(at - 1000, seed * 2_000_000 + c);
    sessionRows.push([
      q(sessionId),
      q(organizationId),
      q('{"utm_source":"facebook"}'),
      q("facebook"),
      q(iso),
      q(iso),
    ]);
    conversationRows.push([
      q(id),
      q(organizationId),
      q(String(34800000000 + c)),
      q(`Antiguo ${c}`),
      q("closed"),
      q("medium"),
      "0",
      "NULL",
      q(iso),
      q("Gracias"),
      q(iso),
      q(sessionId),
      q(iso),
      q(iso),
    ]);
    conversionRows.push([
      q(idAt(at, seed * 3_000_000 + c)),
      q(organizationId),
      q(sessionId),
      q(id),
      q("conversation_start"),
      q(`ev-${seed}-${c}`),
      q(iso),
      q(iso),
    ]);
    for (let m = 0; m < messagesPer; m++) {
      const mIso = new Date(at - (messagesPer - m) * 60_000).toISOString();
      messageRows.push([
        q(idAt(at, seed * 10_000_000 + n++)),
        q(organizationId),
        q(id),
        q(`wamid.OLD${seed}.${n}`),
        q("text"),
        q(pick(random, INBOUND)),
        q("inbound"),
        q("customer"),
        q("read"),
        q(mIso),
        q(mIso),
      ]);
    }
  }
  return [
    ...inserts(
      "tracking_sessions",
      ["id", "organization_id", "tracking_params", "utm_source", "created_at", "last_activity_at"],
      sessionRows,
    ),
    ...inserts(
      "conversations",
      [
        "id",
        "organization_id",
        "phone_number",
        "contact_name",
        "status",
        "priority",
        "unread_count",
        "agent_id",
        "last_message_at",
        "last_message_preview",
        "last_inbound_at",
        "tracking_session_id",
        "created_at",
        "updated_at",
      ],
      conversationRows,
    ),
    ...inserts(
      "conversions",
      [
        "id",
        "organization_id",
        "tracking_session_id",
        "conversation_id",
        "event_name",
        "event_id",
        "event_time",
        "created_at",
      ],
      conversionRows,
    ),
    ...inserts("messages", MESSAGE_COLUMNS, messageRows),
  ];
}

/**
 * The WhatsApp number the webhook benchmarks deliver to (ingest only reads the row);
 * `coexistence`: a number shared with the WhatsApp Business app (the history benchmark's).
 * @param {{ organizationId: string, phoneNumberId: string, now: number, coexistence?: boolean }} options
 */
export function connectionSql({ organizationId, phoneNumberId, now, coexistence = false }) {
  const iso = new Date(now).toISOString();
  return inserts(
    "whatsapp_connections",
    [
      "id",
      "organization_id",
      "phone_number_id",
      "business_account_id",
      "phone_number",
      "access_token_encrypted",
      "status",
      "connected_at",
      "created_at",
      "updated_at",
      "coexistence",
    ],
    [
      [
        q(idAt(now, Number(phoneNumberId))), // one id per number: the bench connects two
        q(organizationId),
        q(phoneNumberId),
        q("bench-waba"),
        q("+34600000000"),
        q("not-a-real-token"),
        q("connected"),
        q(iso),
        q(iso),
        q(iso),
        coexistence ? "1" : "0",
      ],
    ],
  );
}

const KNOWLEDGE_TOPICS = (
  "limpieza blanqueamiento ortodoncia implantes empastes endodoncia férula carillas " +
  "revisión urgencias financiación seguros aparcamiento horarios devoluciones envíos " +
  "garantía reservas cancelaciones bonos tarjetas regalo mascotas accesibilidad factura"
).split(" ");
const KNOWLEDGE_WORDS = (
  "el precio incluye la primera consulta y una revisión a los seis meses con descuento " +
  "para familias pago con tarjeta bizum o efectivo cita previa por teléfono o whatsapp " +
  "de lunes a viernes sábados por la mañana plazo de entrega en días laborables según " +
  "disponibilidad condiciones del seguro política de cancelación con veinticuatro horas"
).split(" ");

/**
 * An organization's knowledge base: `entries` entries (FAQ, prices, policies) of about
 * `chars` characters each, on a few dozen topics; the FTS5 triggers index them as they go in.
 * @param {{ organizationId: string, entries: number, seed: number, now: number, chars?: number }} options
 */
export function knowledgeSql({ organizationId, entries, seed, now, chars = 1_500 }) {
  const random = prng(seed);
  const rows = Array.from({ length: entries }, (_, i) => {
    const topic = pick(random, KNOWLEDGE_TOPICS);
    const words = [topic];
    let length = topic.length;
    while (length < chars) {
      const word = random() < 0.05 ? pick(random, KNOWLEDGE_TOPICS) : pick(random, KNOWLEDGE_WORDS);
      words.push(word);
      length += word.length + 1;
    }
    const at = new Date(now - DAY * 30 + i * 1000).toISOString();
    return [
      q(idAt(now - DAY * 30 + i, seed * 100_000 + i)),
      q(organizationId),
      q(`${topic[0]?.toUpperCase()}${topic.slice(1)}: preguntas frecuentes ${i + 1}`),
      q(words.join(" ")),
      q(at),
      q(at),
    ];
  });
  return inserts(
    "knowledge_entries",
    ["id", "organization_id", "title", "content", "created_at", "updated_at"],
    rows,
    50,
  );
}
