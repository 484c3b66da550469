// The API's security headers (Hono's secureHeaders) on every answer of /api and /webhooks,
// errors included: a refused webhook call is answered like any refused API call.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const HEADERS = [
  "Strict-Transport-Security",
  "X-Content-Type-Options",
  "X-Frame-Options",
  "Referrer-Policy",
  "Cross-Origin-Resource-Policy",
  "Cross-Origin-Opener-Policy",
  "X-XSS-Protection",
] as const;

const securityHeadersOf = (response: Response) =>
  Object.fromEntries(HEADERS.map((name) => [name, response.headers.get(name)]));

const fetchWorker = (path: string, init?: RequestInit) =>
  exports.default.fetch(`http://localhost${path}`, init);

describe("security headers", () => {
  it("the webhook's errors carry the same security headers as the API's", async () => {
    const apiError = await fetchWorker("/api/v1/no-such-route");
    expect(apiError.status).toBe(404);
    const expected = securityHeadersOf(apiError);
    expect(expected["X-Frame-Options"]).toBe("SAMEORIGIN");
    expect(expected["X-Content-Type-Options"]).toBe("nosniff");

    const answers = {
      "bad signature": await fetchWorker("/webhooks/whatsapp", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Hub-Signature-256": "sha256=00" },
        body: "{}",
      }),
      "wrong verify token": await fetchWorker(
        "/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1",
      ),
      "bad challenge": await fetchWorker(
        "/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=test-verify-token&hub.challenge=%3Cb%3E",
      ),
      "unknown webhook": await fetchWorker("/webhooks/whatsapp/otro"),
    };
    expect(
      Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.status])),
    ).toEqual({
      "bad signature": 401,
      "wrong verify token": 403,
      "bad challenge": 400,
      "unknown webhook": 404,
    });
    for (const [name, response] of Object.entries(answers)) {
      expect(securityHeadersOf(response), name).toEqual(expected);
    }
  });
});
