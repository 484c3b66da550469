import { expect, test } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

const MARKUP_NAME = `<img src=x onerror="window.__pwned=1">Ana`;
const MARKUP_ORG = `<script>window.__pwned=1</script>Tienda`;

test("names with markup are shown as text and never run", async ({ page }) => {
  const register = await page.request.post("/api/v1/auth/register", {
    data: {
      email: `xss-${Date.now()}@example.com`,
      password: "secreto123",
      full_name: MARKUP_NAME,
    },
  });
  const token: string = (await register.json()).data.token;
  await page.request.post("/api/v1/organizations", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: MARKUP_ORG,
      industry: "<b>Retail</b>",
      employee_count: "1-10",
      services_offered: "x",
      business_hours: "x",
      city: "x",
      country: "x",
      ai_use_case: "x",
    },
  });
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await page.goto("/dashboard");
  await expect(page.getByText(MARKUP_ORG).first()).toBeVisible();
  await expect(page.getByText(MARKUP_NAME).first()).toBeVisible();
  await page.goto("/settings/organization");
  await expect(page.getByLabel("Sector")).toHaveValue("<b>Retail</b>");
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  await expect(page.locator("img[src='x']")).toHaveCount(0);
});

test("customer text and agent names with markup stay text in the inbox and agent screens", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const agent = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: `<img src=x onerror="window.__pwned=1">Sofía`, system_prompt: "Eres Sofía." },
  });
  const agentId: string = (await agent.json()).data.id;
  const from = `3466${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
  const message = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">¿Hay cita?`;
  const name = `<svg onload="window.__pwned=1">Marta`;
  await deliver(page.request, customerMessage(phoneNumberId, from, message, name));
  const list = await page.request.get("/api/v1/conversations", { headers });
  const conversationId: string = (await list.json()).data.conversations[0].id;
  await page.request.patch(`/api/v1/conversations/${conversationId}/assign`, {
    headers,
    data: { agent_id: agentId },
  });

  for (const path of [
    "/conversations",
    `/conversations/${conversationId}`,
    "/agents",
    `/chats/${agentId}`,
    "/dashboard",
  ]) {
    await page.goto(path);
    await expect(page.getByText(/Marta|Sofía/).first()).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
      path,
    ).toBeUndefined();
    await expect(page.locator("img[src='x'], svg[onload]")).toHaveCount(0);
  }
  await page.goto(`/conversations/${conversationId}`);
  await expect(page.getByText(message).first()).toBeVisible();
  await expect(page.getByText(name).first()).toBeVisible();
});
