// A database that refuses a write (a constraint violation, a lost race) must never show its
// text to the client: the answer is the contract's generic 500, nothing about SQL, D1, tables
// or columns. The refusal is forced with a trigger that raises what SQLite says when a CHECK
// constraint fails, so every layer between the database (D1, or the organization's store) and
// the answer is the real one.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { inboundMessage, delivery } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner, organizationFields, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";
import { deliver } from "../support/webhooks";

const DATABASE_TEXT = "CHECK constraint failed: secret_table.secret_column";
const TRIGGER = "error_text_refuses_writes";

/** The organization whose data holds the trigger; null: D1's global tables. */
let refusingIn: string | null = null;

const runIn = async (organizationId: string | null, sql: string) => {
  if (organizationId === null) await env.DB.prepare(sql).run();
  else await orgSql(organizationId, sql);
};

/**
 * Every `operation` on `table` fails inside the database with DATABASE_TEXT, until the test
 * ends: a global table in D1, an organization's table where its data is.
 */
async function refuseWrites(
  table: string,
  operation: "INSERT" | "UPDATE",
  organizationId: string | null = null,
) {
  refusingIn = organizationId;
  await runIn(
    organizationId,
    `CREATE TRIGGER ${TRIGGER} BEFORE ${operation} ON ${table}
     BEGIN SELECT RAISE(ABORT, '${DATABASE_TEXT}'); END`,
  );
}

afterEach(async () => {
  await runIn(refusingIn, `DROP TRIGGER IF EXISTS ${TRIGGER}`);
  refusingIn = null;
});

function expectGenericFailure(res: { status: number; body: unknown }) {
  expect(res.status).toBe(500);
  expect(res.body).toEqual({
    error: "internal_error",
    message: "Error interno del servidor. Intenta nuevamente más tarde.",
  });
  expect(JSON.stringify(res.body)).not.toMatch(/constraint|secret_|SQLITE|D1_|SQL/i);
}

describe("a write the database refuses", () => {
  it("is a generic 500 on a route that creates (an agent)", async () => {
    const owner = await createOwner();
    await refuseWrites("agents", "INSERT", owner.organization.id);
    const res = await answer(
      api(owner.token).agents.$post({
        json: { name: "Sofía", system_prompt: "Eres la asistente." },
      }),
    );
    expectGenericFailure(res);
  });

  it("is a generic 500 on a route that changes (the profile)", async () => {
    const user = await registerUser();
    await refuseWrites("users", "UPDATE");
    const res = await answer(
      api(user.token).profiles.me.$patch({ json: { full_name: "Otro Nombre" } }),
    );
    expectGenericFailure(res);
  });

  it("is a generic 500 on a route that writes in one batch (an organization)", async () => {
    const user = await registerUser();
    await refuseWrites("organizations", "INSERT");
    const res = await answer(api(user.token).organizations.$post({ json: organizationFields }));
    expectGenericFailure(res);
  });

  it("is a generic 500 to Meta's webhook, which then delivers again", async () => {
    const owner = await createOwner();
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
    await refuseWrites("messages", "INSERT", owner.organization.id);
    const res = await deliver(
      delivery(inboundMessage({ phoneNumberId, from: "34600111222", text: "Hola" })),
    );
    expectGenericFailure(res);
  });
});
