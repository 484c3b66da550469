// Small shared pieces of the local fake servers: JSON bodies, answers, the control API.
import { createServer } from "node:http";

/** @param {import("node:http").IncomingMessage} req */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * JSON as an object; a multipart form as its fields, files as `{ name, type, size, bytes }`.
 * @param {Buffer} raw @param {string | undefined} contentType
 */
export async function parseBody(raw, contentType = "") {
  if (raw.length === 0) return null;
  if (contentType.includes("application/json")) {
    try {
      return JSON.parse(raw.toString("utf8"));
    } catch {
      return raw.toString("utf8");
    }
  }
  if (contentType.includes("multipart/form-data")) {
    const form = await new Response(new Uint8Array(raw), {
      headers: { "Content-Type": contentType },
    }).formData();
    /** @type {Record<string, unknown>} */
    const fields = { multipart: true };
    for (const [key, value] of form) {
      fields[key] =
        typeof value === "string"
          ? value
          : {
              name: value.name,
              type: value.type,
              size: value.size,
              bytes: Buffer.from(await value.arrayBuffer()),
            };
    }
    return fields;
  }
  return raw.toString("utf8");
}

/** @param {import("node:http").ServerResponse} res @param {number} status @param {unknown} body */
export function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A server that records every request, can be told to fail the next matching ones through
 * `POST /__fake/fail`, and serves `GET/DELETE /__fake/requests` and `POST /__fake/reset`.
 * @param {number} port
 * @param {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, body: any, url: URL) => Promise<void> | void} handle
 * @param {(res: import("node:http").ServerResponse, failure: any) => void} answerFailure
 * @param {() => void} [onReset]
 */
export async function startRecordingServer(port, handle, answerFailure, onReset) {
  /** @type {any[]} */
  const requests = [];
  /** @type {any[]} */
  let failures = [];
  /** Requests held by a failure's `hold` name until `POST /__fake/release {hold}`. */
  const held = new Map();
  const heldUntilReleased = (/** @type {string} */ name) =>
    new Promise((resolve) => held.set(name, [...(held.get(name) ?? []), resolve]));

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const raw = await readBody(req);
    const body = await parseBody(raw, req.headers["content-type"]).catch(() => null);

    if (url.pathname.startsWith("/__fake/")) {
      const action = url.pathname.slice("/__fake/".length);
      if (action === "requests" && req.method === "GET") return sendJson(res, 200, requests);
      if (action === "requests" && req.method === "DELETE") {
        requests.length = 0;
        return sendJson(res, 200, { ok: true });
      }
      if (action === "reset") {
        requests.length = 0;
        failures = [];
        for (const waiting of held.values()) for (const resolve of waiting) resolve(undefined);
        held.clear();
        onReset?.();
        return sendJson(res, 200, { ok: true });
      }
      if (action === "fail") {
        failures.push({ times: 1, ...body });
        return sendJson(res, 200, { ok: true });
      }
      if (action === "held" && req.method === "GET") {
        const name = url.searchParams.get("hold") ?? "";
        return sendJson(res, 200, { waiting: held.get(name)?.length ?? 0 });
      }
      if (action === "release") {
        const waiting = held.get(String(body?.hold)) ?? [];
        held.delete(String(body?.hold));
        for (const resolve of waiting) resolve(undefined);
        return sendJson(res, 200, { released: waiting.length });
      }
      return handle(req, res, body, url);
    }

    requests.push({
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      at: new Date().toISOString(),
    });
    const failure = failures.find(
      (f) =>
        f.times > 0 &&
        (!f.method || f.method === req.method) &&
        // Fakes are shared by test files running at once: `contains` keeps a failure to its test.
        (!f.contains || raw.includes(f.contains)) &&
        (f.match === "regex"
          ? new RegExp(f.path).test(url.pathname)
          : !f.path || f.path === url.pathname),
    );
    if (failure) {
      failure.times -= 1;
      if (failure.delay_ms) await new Promise((r) => setTimeout(r, failure.delay_ms));
      if (failure.hold) await heldUntilReleased(String(failure.hold));
      if (failure.status) return answerFailure(res, failure);
    }
    try {
      await handle(req, res, body, url);
    } catch (error) {
      sendJson(res, 500, { error: { message: String(error) } });
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    port: actualPort,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
