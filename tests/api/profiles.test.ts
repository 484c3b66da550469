// Hand-built requests here are the subject: invalid bodies and a path the routes do not have.
import { describe, expect, it } from "vitest";
import { registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";

describe("/profiles/me", () => {
  it("returns the caller's profile", async () => {
    const user = await registerUser({ full_name: "Luis Gómez" });
    const res = await answer(api(user.token).profiles.me.$get());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: user.user.id, full_name: "Luis Gómez", email: user.email });
  });

  it("updates the full name, trimmed; the e-mail is not editable", async () => {
    const user = await registerUser();
    // On `call`: an email beside the name, which the typed client would refuse.
    const res = await call("PATCH", "/api/v1/profiles/me", {
      token: user.token,
      body: { full_name: "  Luisa Gómez ", email: "otro@example.com" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: user.user.id,
      full_name: "Luisa Gómez",
      email: user.email,
    });
    const me = await answer(api(user.token).auth.me.$get());
    expect(me.body.data.user.full_name).toBe("Luisa Gómez");
  });

  it("rejects a blank or too long name with 422 and keeps the old one", async () => {
    const user = await registerUser({ full_name: "Antes" });
    for (const full_name of ["   ", "x".repeat(121), 7]) {
      // On `call`: a number among the names, which the typed client would refuse.
      const res = await call("PATCH", "/api/v1/profiles/me", {
        token: user.token,
        body: { full_name },
      });
      expect(res.status).toBe(422);
      expect(res.body.details[0].path).toBe("full_name");
    }
    const profile = await answer(api(user.token).profiles.me.$get());
    expect(profile.body.data.full_name).toBe("Antes");
  });

  it("needs a token", async () => {
    expect((await answer(api().profiles.me.$get())).status).toBe(401);
    expect((await answer(api().profiles.me.$patch({ json: { full_name: "X" } }))).status).toBe(401);
  });
});

describe("unknown routes", () => {
  it("answer 404 with the envelope", async () => {
    // On `call`: a path the routes do not have, so the typed client has none.
    const res = await call("GET", "/api/v1/no-existe");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: "Ruta no encontrada." });
  });
});
