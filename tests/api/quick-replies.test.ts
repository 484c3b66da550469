import { describe, expect, it } from "vitest";
import { createOwner } from "../support/factories";
import { call } from "../support/http";

describe("quick replies", () => {
  it("are created, listed by shortcut, edited and deleted", async () => {
    const owner = await createOwner();
    const horario = await call("POST", "/api/v1/quick-replies", {
      token: owner.token,
      body: { shortcut: " Horario ", content: "Abrimos de lunes a viernes de 9 a 19 h." },
    });
    expect(horario.status).toBe(201);
    expect(horario.body.data.shortcut).toBe("horario");
    await call("POST", "/api/v1/quick-replies", {
      token: owner.token,
      body: { shortcut: "gracias", content: "¡Gracias!" },
    });

    const list = await call("GET", "/api/v1/quick-replies", { token: owner.token });
    expect(list.body.data.map((r: { shortcut: string }) => r.shortcut)).toEqual([
      "gracias",
      "horario",
    ]);

    const edited = await call("PATCH", `/api/v1/quick-replies/${horario.body.data.id}`, {
      token: owner.token,
      body: { content: "De 9 a 20 h." },
    });
    expect(edited.body.data).toMatchObject({ shortcut: "horario", content: "De 9 a 20 h." });
    expect(
      (
        await call("DELETE", `/api/v1/quick-replies/${horario.body.data.id}`, {
          token: owner.token,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call("GET", "/api/v1/quick-replies", { token: owner.token })).body.data,
    ).toHaveLength(1);
  });

  it("refuse a duplicate shortcut (409) and bad input (422)", async () => {
    const owner = await createOwner();
    await call("POST", "/api/v1/quick-replies", {
      token: owner.token,
      body: { shortcut: "hola", content: "Hola" },
    });
    const dup = await call("POST", "/api/v1/quick-replies", {
      token: owner.token,
      body: { shortcut: "HOLA", content: "Otro" },
    });
    expect(dup.status).toBe(409);
    const bad = await call("POST", "/api/v1/quick-replies", {
      token: owner.token,
      body: { shortcut: "con espacio", content: " " },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "content",
      "shortcut",
    ]);
  });

  it("of another organization are 404", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const reply = await call("POST", "/api/v1/quick-replies", {
      token: b.token,
      body: { shortcut: "b", content: "B" },
    });
    const id = reply.body.data.id;
    expect(
      (
        await call("PATCH", `/api/v1/quick-replies/${id}`, {
          token: a.token,
          body: { content: "A" },
        })
      ).status,
    ).toBe(404);
    expect((await call("DELETE", `/api/v1/quick-replies/${id}`, { token: a.token })).status).toBe(
      404,
    );
    expect((await call("GET", "/api/v1/quick-replies", { token: a.token })).body.data).toEqual([]);
  });
});
