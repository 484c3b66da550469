// `npm run stores`, the operator's command (contract section 15), run as an operator runs it
// against the browser tests' server: list, move back to D1 and into the store again, with the
// organization's inbox on screen before and after each move.
import { execFile } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";
import { E2E_SETTINGS } from "./settings.mjs";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node scripts/stores.mjs <args> --url <the app>`, with the operator's token unless given. */
function stores(baseURL: string, args: string[], token = E2E_SETTINGS.operatorToken) {
  return new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      ["scripts/stores.mjs", ...args, "--url", baseURL],
      { env: { ...process.env, OPERATOR_TOKEN: token } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function stateOf(baseURL: string, organizationId: string) {
  const listed = await stores(baseURL, ["list", "--json"]);
  expect(listed.code, listed.stderr).toBe(0);
  const rows = JSON.parse(listed.stdout) as { organization_id: string; state: string }[];
  return rows.find((row) => row.organization_id === organizationId)?.state;
}

async function expectInbox(page: Page, ...names: string[]) {
  await page.goto("/conversations");
  const list = page.getByRole("list", { name: "Conversaciones" });
  await expect(list.getByRole("listitem")).toHaveCount(names.length);
  for (const name of names) await expect(list.getByText(name)).toBeVisible();
}

test("npm run stores moves an organization to D1 and back, its inbox the same throughout", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const app = baseURL!;
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const organizationId: string = (
    await (await page.request.get("/api/v1/organizations/me", { headers })).json()
  ).data.id;
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34611000101", "¿Tenéis cita el lunes?", "Lucía Prado"),
  );
  await expectInbox(page, "Lucía Prado");
  // A new organization starts in its store.
  expect(await stateOf(app, organizationId)).toBe("store");

  // The flag first, as the contract writes it.
  const back = await stores(app, ["move", "--back", organizationId]);
  expect(back.code, back.stderr).toBe(0);
  expect(back.stdout).toContain(`(${organizationId}) → D1`);
  expect(back.stdout).toMatch(/conversations: D1 1 \([^)]*\) · almacén 1 \([^)]*\) · iguales/);
  expect(back.stdout).toContain("Listo: en D1.");
  expect(await stateOf(app, organizationId)).toBe("d1");
  await expectInbox(page, "Lucía Prado");

  // A customer writes while the organization is in D1.
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34611000102", "¿Y el martes?", "Pedro Gil"),
  );
  const forth = await stores(app, ["move", organizationId]);
  expect(forth.code, forth.stderr).toBe(0);
  // Into its store, each page was checked as it was copied: the end compares counts.
  expect(forth.stdout).toMatch(/conversations: D1 2 · almacén 2 · iguales/);
  expect(forth.stdout).toContain("Listo: en su almacén.");
  expect(await stateOf(app, organizationId)).toBe("store");
  await expectInbox(page, "Lucía Prado", "Pedro Gil");
});

test("npm run stores refuses an unknown organization and a wrong token in Spanish", async ({
  baseURL,
}) => {
  const unknown = await stores(baseURL!, ["move", "no-existe"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("No hay ninguna organización no-existe.");

  const refused = await stores(baseURL!, ["list"], "otro-token");
  expect(refused.code).toBe(1);
  expect(refused.stderr.trim()).toBe("Token de operador no válido.");

  // The token never travels in the clear to another machine.
  const plain = await stores(baseURL!, ["list", "--url", "http://operador.example.com"]);
  expect(plain.code).toBe(2);
  expect(plain.stderr).toContain("http://operador.example.com: usa https://");
});

test("npm run stores -- abort returns a move left under way to where the data was", async ({
  page,
  baseURL,
}) => {
  const app = baseURL!;
  const { headers } = await signedInOwner(page);
  const organizationId: string = (
    await (await page.request.get("/api/v1/organizations/me", { headers })).json()
  ).data.id;
  // A move begun and left (the command killed): its organization is copying.
  const begun = await page.request.post(`/api/v1/operator/stores/${organizationId}/move`, {
    headers: { Authorization: `Bearer ${E2E_SETTINGS.operatorToken}` },
    data: { to: "d1" },
  });
  expect(begun.status()).toBe(200);
  expect(await stateOf(app, organizationId)).toBe("copying");

  const aborted = await stores(app, ["abort", organizationId]);
  expect(aborted.code, aborted.stderr).toBe(0);
  expect(aborted.stdout.trim()).toBe("Traslado abandonado: sigue en su almacén.");
  expect(await stateOf(app, organizationId)).toBe("store");
  const again = await stores(app, ["abort", organizationId]);
  expect(again.code).toBe(1);
  expect(again.stderr.trim()).toBe("La organización no se está trasladando.");
});
