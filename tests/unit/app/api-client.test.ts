import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, client, data } from "../../../app/lib/api";

/** Answers every call with `body` and `status`, and remembers what was asked. */
function answer(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, "fetch")
    .mockImplementation(async () => Response.json(body, { status }));
}

afterEach(() => vi.restoreAllMocks());

describe("the console's typed API client", () => {
  it("encodes path params, so an id from the address bar cannot point at another path", async () => {
    const fetch = answer(200, { data: { id: "x" } });
    await data(client.agents[":id"].$get({ param: { id: "../usage" } }));
    expect(String(fetch.mock.calls[0]![0])).toBe("/api/v1/agents/..%2Fusage");
  });

  it("sends queries and JSON bodies as the routes declare them, and unwraps `data`", async () => {
    const fetch = answer(200, { data: { id: "c1", stage: "lead" } });
    const updated = await data(
      client.conversations[":id"].$patch({ param: { id: "c1" }, json: { stage: "lead" } }),
    );
    expect(updated).toMatchObject({ id: "c1", stage: "lead" });
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe("/api/v1/conversations/c1");
    expect(init?.method).toBe("PATCH");
    expect(init?.body).toBe(JSON.stringify({ stage: "lead" }));

    await data(client.conversations.$get({ query: { page: "2", stage: "lead" } }));
    expect(String(fetch.mock.calls[1]![0])).toBe("/api/v1/conversations?page=2&stage=lead");
  });

  it("turns an error answer into an ApiError with the server's Spanish message", async () => {
    answer(422, { error: "validation_error", message: "Etapa no válida", details: [] });
    const call = data(client.conversations[":id"].$patch({ param: { id: "c1" }, json: {} }));
    await expect(call).rejects.toEqual(new ApiError("Etapa no válida", 422, "validation_error"));
  });

  it("words a wrong login by the catalogue, not as an expired session", async () => {
    answer(401, null);
    const call = data(
      client.auth.login.$post({ json: { email: "ana@example.com", password: "x" } }),
    );
    await expect(call).rejects.toThrow("Credenciales incorrectas. Verifica tu email y contraseña.");
  });
});
