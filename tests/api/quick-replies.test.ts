import { describe, expect, it } from "vitest";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";

describe("quick replies", () => {
  it("are created, listed by shortcut, edited and deleted", async () => {
    const owner = await createOwner();
    const horario = await answer(
      api(owner.token)["quick-replies"].$post({
        json: { shortcut: " Horario ", content: "Abrimos de lunes a viernes de 9 a 19 h." },
      }),
    );
    expect(horario.status).toBe(201);
    expect(horario.body.data.shortcut).toBe("horario");
    await answer(
      api(owner.token)["quick-replies"].$post({
        json: { shortcut: "gracias", content: "¡Gracias!" },
      }),
    );

    const list = await answer(api(owner.token)["quick-replies"].$get());
    expect(list.body.data.map((r: { shortcut: string }) => r.shortcut)).toEqual([
      "gracias",
      "horario",
    ]);

    const edited = await answer(
      api(owner.token)["quick-replies"][":id"].$patch({
        param: { id: horario.body.data.id },
        json: { content: "De 9 a 20 h." },
      }),
    );
    expect(edited.body.data).toMatchObject({ shortcut: "horario", content: "De 9 a 20 h." });
    expect(
      (
        await answer(
          api(owner.token)["quick-replies"][":id"].$delete({ param: { id: horario.body.data.id } }),
        )
      ).status,
    ).toBe(200);
    expect((await answer(api(owner.token)["quick-replies"].$get())).body.data).toHaveLength(1);
  });

  it("refuse a duplicate shortcut (409) and bad input (422)", async () => {
    const owner = await createOwner();
    await answer(
      api(owner.token)["quick-replies"].$post({ json: { shortcut: "hola", content: "Hola" } }),
    );
    const dup = await answer(
      api(owner.token)["quick-replies"].$post({ json: { shortcut: "HOLA", content: "Otro" } }),
    );
    expect(dup.status).toBe(409);
    const bad = await answer(
      api(owner.token)["quick-replies"].$post({ json: { shortcut: "con espacio", content: " " } }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "content",
      "shortcut",
    ]);
  });

  it("of another organization are 404", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const reply = await answer(
      api(b.token)["quick-replies"].$post({ json: { shortcut: "b", content: "B" } }),
    );
    const id = reply.body.data.id;
    expect(
      (
        await answer(
          api(a.token)["quick-replies"][":id"].$patch({ param: { id }, json: { content: "A" } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await answer(api(a.token)["quick-replies"][":id"].$delete({ param: { id } }))).status,
    ).toBe(404);
    expect((await answer(api(a.token)["quick-replies"].$get())).body.data).toEqual([]);
  });
});
