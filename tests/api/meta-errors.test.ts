// One mapping of Meta's errors to the API's answers (durable-objects/meta/errors.ts, decision 0101): Meta
// refusing is the request's (422, in Spanish), Meta failing is Meta's (502); either way the
// call stores nothing, and Meta's own words never reach the answer.
import { describe, expect, it } from "vitest";
import { META_ERROR_TEXT } from "../../contracts/meta-error-text";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { failNext } from "../support/webhooks";

/** Connects a pixel of its own (the failure injected is this request's alone). */
async function connectPixel(token: string, pixelId: string) {
  return answer(
    api(token)["meta-config"].$post({
      json: { pixel_id: pixelId, access_token: "test-access-token" },
    }),
  );
}

describe("Meta's errors", () => {
  it("answer 422 when Meta refuses and 502 when Meta fails, storing nothing", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    const pixelId = `55${Math.floor(Math.random() * 1e12)}`;

    await failNext("graph", {
      path: `/v25.0/${pixelId}`,
      status: 400,
      error: { message: "SECRETO-META Invalid OAuth access token", code: 190 },
    });
    const refused = await connectPixel(owner.token, pixelId);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: "meta_error", message: META_ERROR_TEXT[190] });

    await failNext("graph", {
      path: `/v25.0/${pixelId}`,
      status: 503,
      error: { message: "SECRETO-META service unavailable", code: 2 },
    });
    const failed = await connectPixel(owner.token, pixelId);
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe("meta_error");
    expect(JSON.stringify([refused.body, failed.body])).not.toContain("SECRETO-META");

    for (const token of [owner.token, other.token]) {
      expect((await answer(api(token)["meta-config"].$get())).status).toBe(404);
    }
  });
});
