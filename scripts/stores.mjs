// The operator's command for organization stores (contract section 15, docs/decisions/0052):
//   npm run stores -- list [--json] [--url <app>]
//   npm run stores -- move <organization_id>|--all [--back] [--url <app>]
//   npm run stores -- abort <organization_id> [--url <app>]
// It talks to the running app (default: the local `npm run dev`) through /api/v1/operator,
// authorized by OPERATOR_TOKEN (the environment's, else .dev.vars').
import { existsSync, readFileSync } from "node:fs";
import { moveOrganization } from "./move-steps.mjs";

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
    "Uso: npm run stores -- list [--json] | move [--back] <organization_id>|--all | abort <organization_id>   [--url https://tu-app.example.com]",
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
if (command !== "list" && command !== "move" && command !== "abort") {
  usage(command ? `Orden desconocida: ${command}` : undefined);
}
if (!base) usage("Falta la dirección tras --url.");
if (!safeAddress(base)) {
  usage(`${base}: usa https:// (http:// solo para esta máquina: localhost, 127.0.0.1, [::1]).`);
}
const token = operatorToken();
if (!token) usage("Falta OPERATOR_TOKEN (en el entorno o en .dev.vars).");

/**
 * One call to the app's operator routes; exits non-zero on a refusal.
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
  if (!response.ok) throw new Error(answer.message ?? `${base} respondió ${response.status}`);
  return answer.data;
}

/** @type {{organization_id: string, name: string, state: string, schema_version: number, bytes: number, messages: number, stuck_parts: number}[]} */
const stores = await operator("/stores").catch((error) => {
  // A refused token, say: the app's own words, not a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

if (command === "list") {
  if (args.includes("--json")) {
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
        s.stuck_parts > 0 ? `${s.stuck_parts} entregas atascadas` : "",
      ]
        .filter(Boolean)
        .join("; "),
    }));
    if (rows.length === 0) console.log("No hay organizaciones.");
    else console.table(rows);
  }
} else {
  const back = args.includes("--back");
  const to = back ? "d1" : "store";
  // The organization is the one word that is neither a flag nor --url's value, wherever it is
  // (`move <id> --back` and `move --back <id>` alike).
  const named =
    args.slice(1).find((arg, i) => !arg.startsWith("--") && args[i] !== "--url") ?? null;
  if (command === "abort") {
    if (!named) usage("Indica la organización.");
    await abort(named);
  }
  if (!named && !args.includes("--all")) usage("Indica la organización o --all.");
  const chosen = named
    ? stores.filter((s) => s.organization_id === named)
    : stores.filter((s) => (back ? s.state === "store" : s.state === "d1" || s.state === "store"));
  if (named && chosen.length === 0) usage(`No hay ninguna organización ${named}.`);
  let failed = 0;
  for (const store of chosen) {
    try {
      await move(store.organization_id, store.name, to);
    } catch (error) {
      failed += 1;
      console.error(`  ${store.name}: ${error instanceof Error ? error.message : error}`);
      await operator(`/stores/${store.organization_id}/abort`, {}).catch(() => undefined);
    }
  }
  process.exit(failed > 0 ? 1 : 0);
}

/**
 * Returns a move left under way (the command killed, a network lost) to where the
 * organization's data was; its held deliveries are applied there.
 * @param {string} id @returns {Promise<never>}
 */
async function abort(id) {
  try {
    const { state } = await operator(`/stores/${id}/abort`, {});
    console.log(`Traslado abandonado: sigue en ${state === "store" ? "su almacén" : "D1"}.`);
    process.exit(0);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

/**
 * Moves one organization, step by step, printing what it does and the figures it checked.
 * @param {string} id @param {string} name @param {"d1" | "store"} to
 */
async function move(id, name, to) {
  console.log(`${name} (${id}) → ${to === "store" ? "su almacén" : "D1"}`);
  const moved = await moveOrganization(operator, id, to, (event) => {
    if (event.step === "table") {
      const { copied, changed, refused } = event.figures;
      const what = event.again ? "cambiadas desde la copia" : "copiadas";
      const waiting = refused > 0 ? `, ${refused} a la espera de otras filas` : "";
      console.log(`  ${event.table}: ${copied} filas leídas, ${changed} ${what}${waiting}`);
    } else if (event.step === "changes") {
      const copied = Object.values(event.tables).reduce((sum, t) => sum + t.synced, 0);
      const when = event.switched ? "con las escrituras en espera" : "mientras trabaja";
      console.log(
        `  Cambios desde la copia (${when}): ${copied} copiados de nuevo, quedan ${event.remaining}.`,
      );
    } else {
      console.log(
        `  Escrituras en espera; copio los cambios en ${Math.ceil(event.ms / 1000)} s (las rutas en caché caducan).`,
      );
    }
  });
  if (moved === null) {
    console.log("  Nada que copiar: su almacén ya tiene todos sus datos.");
    return;
  }
  const { finished, times } = moved;
  for (const check of finished.checks) {
    const same = !finished.differing.includes(check.table);
    const figures = (/** @type {{ count: number, checksum?: string }} */ side) =>
      side.checksum ? `${side.count} (${side.checksum})` : `${side.count}`;
    const pending = check.pending > 0 ? ` · ${check.pending} sin copiar` : "";
    console.log(
      `  ${check.table}: D1 ${figures(check.d1)} · almacén ${figures(check.store)}${pending} · ${same ? "iguales" : "DISTINTOS"}`,
    );
  }
  if (!finished.moved) {
    throw new Error(
      `no coinciden ${finished.differing.join(", ")}: sigue en ${finished.state === "store" ? "su almacén" : "D1"}`,
    );
  }
  const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `  Copiado en ${seconds(times.copyMs)}; escrituras en espera ${seconds(times.switchingMs)}.`,
  );
  console.log(`  Listo: en ${finished.state === "store" ? "su almacén" : "D1"}.`);
}
