// workerd closes a connection after answering a request whose body was not read to its end,
// and a pooling proxy (vite dev/preview) may already have sent the next request on it: the
// Worker reads what its routes left of a small body before answering (docs/decisions/0019).
import { describe, expect, it } from "vitest";
import { MAX_DRAINED_BODY_BYTES, readUnreadBody } from "../../worker/http/unread-body";

const withBody = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/v1/conversations/c1/read", { method: "PATCH", body, headers });

describe("readUnreadBody", () => {
  it("reads to its end a small body the route never read", async () => {
    const request = withBody("{}", { "Content-Length": "2" });
    await readUnreadBody(request);
    expect(request.bodyUsed).toBe(true);
  });

  it("leaves alone a body the route read, a request without body", async () => {
    const read = withBody('{"a":1}', { "Content-Length": "7" });
    expect(await read.json()).toEqual({ a: 1 });
    await expect(readUnreadBody(read)).resolves.toBeUndefined();
    await expect(readUnreadBody(new Request("http://localhost/"))).resolves.toBeUndefined();
  });

  it("does not read a large or unmeasured body: the connection may close", async () => {
    const size = MAX_DRAINED_BODY_BYTES + 1;
    const large = withBody("x".repeat(size), { "Content-Length": String(size) });
    const unmeasured = withBody("{}");
    await readUnreadBody(large);
    await readUnreadBody(unmeasured);
    expect(large.bodyUsed).toBe(false);
    expect(unmeasured.bodyUsed).toBe(false);
  });
});
