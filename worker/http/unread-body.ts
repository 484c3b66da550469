/** Request bodies up to this size are read to their end even when the route had no use for them. */
export const MAX_DRAINED_BODY_BYTES = 64 * 1024;

/**
 * Reads what the Worker left unread of a small request body (a `PATCH …/read` sent with `{}`,
 * a refused request). workerd closes a connection right after answering a request whose body
 * was not read to its end, while a client that pools connections, such as the proxy of
 * `vite dev` and `vite preview` (the browser tests' server), may already have written its
 * next request on it: that request then fails with ECONNRESET (docs/decisions/0019).
 * Larger bodies are left alone: for a refused upload, closing is the right answer.
 */
export async function readUnreadBody(request: Request) {
  const declared = Number(request.headers.get("Content-Length") ?? Infinity);
  if (!request.body || request.bodyUsed || request.body.locked) return;
  if (!(declared <= MAX_DRAINED_BODY_BYTES)) return;
  await request.arrayBuffer();
}
