// The operator's command for organization stores (contract section 15, docs/decisions/0052):
//   npm run stores -- list [--json] [--url <app>]
//   npm run stores -- restore <organization_id> <moment, ISO 8601 | bookmark> [--url <app>]
// It talks to the running app (default: the local `npm run dev`) through /api/v1/operator,
// authorized by OPERATOR_TOKEN (the environment's, else .dev.vars').
import { existsSync, readFileSync } from "node:fs";

const STORE_LIMIT_BYTES = 10 * 1024 ** 3;
const FLAG_AT = 0.6;

/**
 * The token travels with every call: only `https:`, or plain `http:` to this very machine.
 * @param {string} url
 */
function safeAddress(url) {
  try {
    const { protocol, hostname } = new URL(url);
    const local = ["localhost", "127.0.0.1", "[::1]"].includes(hostname);
    return protocol === "https:" || (protocol === "http:" && local);
  } catch {
    return false;
  }
}

/** @param {string} [message] @returns {never} */
function usage(message) {
  if (message) console.error(message);
  console.error(
    "Uso: npm run stores -- list [--json] | restore <organization_id> <momento ISO 8601 | marcador>   [--url https://tu-app.example.com]",
  );
  process.exit(2);
}

function operatorToken() {
  if (process.env.OPERATOR_TOKEN) return process.env.OPERATOR_TOKEN;
  if (!existsSync(".dev.vars")) return null;
  const line = readFileSync(".dev.vars", "utf8")
    .split("\n")
    .find((l) => l.trim().startsWith("OPERATOR_TOKEN="));
  return line?.split("=").slice(1).join("=").trim().replace(/^"|"$/g, "") || null;
}

const args = process.argv.slice(2);
const [command] = args;
const urlAt = args.indexOf("--url");
const base = (urlAt >= 0 ? args[urlAt + 1] : "http://localhost:5173")?.replace(/\/$/, "");
if (command !== "list" && command !== "restore") {
  usage(command ? `Orden desconocida: ${command}` : undefined);
}
if (!base) usage("Falta la dirección tras --url.");
if (!safeAddress(base)) {
  usage(`${base}: usa https:// (http:// solo para esta máquina: localhost, 127.0.0.1, [::1]).`);
}
const token = operatorToken();
if (!token) usage("Falta OPERATOR_TOKEN (en el entorno o en .dev.vars).");

/**
 * One call to the app's operator routes (a POST when it has a body); exits non-zero on a refusal.
 * @param {string} path @param {unknown} [body] @returns {Promise<any>}
 */
async function operator(path, body) {
  let response;
  try {
    response = await fetch(`${base}/api/v1/operator${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const reason =
      error instanceof Error ? (/** @type {any} */ (error.cause)?.code ?? error.message) : error;
    console.error(`No se pudo conectar con ${base}: ${reason}`);
    process.exit(1);
  }
  if (response.status === 404 && path === "/stores") {
    console.error(`${base} no tiene rutas de operador: define OPERATOR_TOKEN en ese despliegue.`);
    process.exit(1);
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    // A refused field says which in `details`: the operator reads that, not only the summary.
    /** @type {{ message: string }[]} */
    const details = answer.details ?? [];
    const why = details.map((detail) => detail.message).join(" ");
    throw new Error(why || answer.message || `${base} respondió ${response.status}`);
  }
  return answer.data;
}

/** @type {{organization_id: string, name: string, state: string, served: boolean, schema_version: number, bytes: number, messages: number}[]} */
const stores = await operator("/stores").catch((error) => {
  // A refused token, say: the app's own words, not a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

if (command === "restore") {
  // The organization and the moment: the two words that are neither flags nor --url's value.
  const [organizationId, to] = args
    .slice(1)
    .filter((arg, i) => !arg.startsWith("--") && args[i] !== "--url");
  if (!organizationId || !to) usage("Falta la organización o el momento (ISO 8601, con zona).");
  // A moment has a date; anything else is a bookmark (an earlier restore's undo).
  const target = /^\d{4}-\d{2}-\d{2}T/.test(to) ? { at: to } : { bookmark: to };
  try {
    const restored = await operator(`/stores/${organizationId}/restore`, target);
    console.log(`Restaurada (${restored.bookmark}).`);
    console.log(`Para deshacerlo: npm run stores -- restore ${organizationId} ${restored.undo}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
} else if (args.includes("--json")) {
  console.log(JSON.stringify(stores, null, 2));
} else {
  const rows = stores.map((s) => ({
    organización: s.name,
    id: s.organization_id,
    estado: s.state,
    esquema: s.schema_version,
    MB: (s.bytes / 1024 ** 2).toFixed(1),
    mensajes: s.messages,
    aviso: [
      s.bytes > FLAG_AT * STORE_LIMIT_BYTES ? "más del 60% de 10 GB" : "",
      s.served ? "" : "sin servir (store_required): trasládala con la versión de parada del README",
    ]
      .filter(Boolean)
      .join("; "),
  }));
  if (rows.length === 0) console.log("No hay organizaciones.");
  else console.table(rows);
}
