// The embeddable snippet on a business's own landing page (another origin), in Chromium:
// session from the ad parameters, decorated WhatsApp link, click recorded, and the first
// WhatsApp message matched back to the visit by the webhook.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

// The business's page is served from another (secure) origin. In production the console is
// public; here it is on loopback, which Chromium lets other origins reach only with this permission.
const LANDING = "https://clinica.example";
test.use({ permissions: ["local-network-access"] });

async function conversionNames(request: APIRequestContext, headers: Record<string, string>) {
  const response = await request.get("/api/v1/tracking/conversions", { headers });
  const list = (await response.json()).data.conversions as {
    event_name: string;
    phone_number: string;
  }[];
  return list.map((c) => `${c.event_name}:${c.phone_number ?? ""}`).sort();
}

test("the snippet tracks an ad visit through the WhatsApp link to the first message", async ({
  page,
  baseURL,
}) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const organization = await (
    await page.request.get("/api/v1/organizations/me", { headers })
  ).json();
  const key: string = organization.data.tracking_key;

  // The business's page, served from its own origin, with the snippet pasted in.
  await page.route(`${LANDING}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html><body>
        <h1>Ortodoncia invisible</h1>
        <a id="wa" href="https://wa.me/34600000000?text=Hola">Escríbenos por WhatsApp</a>
        <script src="${new URL(baseURL!).origin}/t.js" data-key="${key}" async></script>
      </body></html>`,
    }),
  );
  await page.route("https://wa.me/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }),
  );

  await page.goto(`${LANDING}/ortodoncia?utm_source=facebook&utm_campaign=Verano#fbclid=IwAR-hash`);
  const link = page.locator("#wa");
  await expect(link).toHaveAttribute("data-atiende", "1");
  const href = new URL((await link.getAttribute("href"))!);
  const text = href.searchParams.get("text")!;
  expect(text).toMatch(/^Hola \(ref: AT-[2-9A-HJ-NP-Z]{6}\)$/);
  const sessionId = await page.evaluate(() => localStorage.getItem("tracking_session_id"));
  const session = await (
    await page.request.get(`/api/v1/tracking/sessions/${sessionId}`, { headers })
  ).json();
  // The fbclid came from the URL's hash.
  expect(session.data.tracking_params).toEqual({
    utm_source: "facebook",
    utm_campaign: "Verano",
    fbclid: "IwAR-hash",
  });
  expect(session.data.landing_page).toContain("/ortodoncia");

  // A second visit reuses the session instead of creating another.
  await page.reload();
  await expect(link).toHaveAttribute("data-atiende", "1");
  expect(await page.evaluate(() => localStorage.getItem("tracking_session_id"))).toBe(sessionId);
  const stats = await (await page.request.get("/api/v1/tracking/stats", { headers })).json();
  expect(stats.data.total_sessions).toBe(1);

  // The page goes to WhatsApp once the click is recorded, not before.
  const recorded = page.waitForResponse(
    (r) => r.url().endsWith("/api/v1/tracking/conversions") && r.request().method() === "POST",
  );
  await link.click();
  await expect(page).toHaveURL(/^https:\/\/wa\.me\//);
  expect((await recorded).status()).toBe(201);
  expect(await conversionNames(page.request, headers)).toEqual(["whatsapp_click:"]);

  // The customer sends the prefilled text: the webhook matches the reference to the visit.
  const from = `3465${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
  await deliver(page.request, customerMessage(phoneNumberId, from, text));
  await expect
    .poll(() => conversionNames(page.request, headers))
    .toEqual([`conversation_start:${from}`, `first_message:${from}`, "whatsapp_click:"]);
  const linked = await (
    await page.request.get(`/api/v1/tracking/sessions/${sessionId}`, { headers })
  ).json();
  expect(linked.data.phone_number).toBe(from);
});

test("without ad parameters the snippet creates no session and leaves links alone", async ({
  page,
  baseURL,
}) => {
  const { headers } = await signedInOwner(page);
  const organization = await (
    await page.request.get("/api/v1/organizations/me", { headers })
  ).json();
  await page.route(`${LANDING}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html><body>
        <a id="wa" href="https://wa.me/34600000000">WhatsApp</a>
        <script src="${new URL(baseURL!).origin}/t.js" data-key="${organization.data.tracking_key}"></script>
      </body></html>`,
    }),
  );
  await page.goto(`${LANDING}/?utm_medium=email`);
  await page.waitForLoadState("networkidle");
  await expect(page.locator("#wa")).not.toHaveAttribute("data-atiende", "1");
  expect(await page.evaluate(() => localStorage.getItem("tracking_session_id"))).toBeNull();
  const stats = await (await page.request.get("/api/v1/tracking/stats", { headers })).json();
  expect(stats.data.total_sessions).toBe(0);
});
