// `npm run stores`, the operator's command (contract section 15), run as an operator runs it
// against the browser tests' server: each organization's store, its size, and whether it is
// served.
import { execFile } from "node:child_process";
import { expect, test } from "@playwright/test";
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

test("npm run stores -- list shows each organization's store and that it is served", async ({
  page,
  baseURL,
}) => {
  const app = baseURL!;
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const organizationId: string = (
    await (await page.request.get("/api/v1/organizations/me", { headers })).json()
  ).data.id;
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34611000101", "¿Tenéis cita el lunes?", "Lucía Prado"),
  );
  await expect
    .poll(async () => {
      const listed = await stores(app, ["list", "--json"]);
      expect(listed.code, listed.stderr).toBe(0);
      const rows = JSON.parse(listed.stdout) as Record<string, unknown>[];
      return rows.find((row) => row.organization_id === organizationId);
    })
    .toMatchObject({ state: "store", served: true });
  const table = await stores(app, ["list"]);
  expect(table.code, table.stderr).toBe(0);
  expect(table.stdout).toContain(organizationId);
});

test("npm run stores refuses an unknown command and a wrong token in Spanish", async ({
  baseURL,
}) => {
  const unknown = await stores(baseURL!, ["move", "no-existe"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("Orden desconocida: move");

  const refused = await stores(baseURL!, ["list"], "otro-token");
  expect(refused.code).toBe(1);
  expect(refused.stderr.trim()).toBe("Token de operador no válido.");

  // The token never travels in the clear to another machine.
  const plain = await stores(baseURL!, ["list", "--url", "http://operador.example.com"]);
  expect(plain.code).toBe(2);
  expect(plain.stderr).toContain("http://operador.example.com: usa https://");
});
