import { describe, expect, it } from "vitest";
import { registerUser } from "../support/factories";
import { call } from "../support/http";

describe("/profiles/me", () => {
  it("returns the caller's profile", async () => {
    const user = await registerUser({ full_name: "Luis Gómez" });
    const res = await call("GET", "/api/v1/profiles/me", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: user.user.id, full_name: "Luis Gómez", email: user.email });
  });

  it("updates the full name, trimmed; the e-mail is not editable", async () => {
    const user = await registerUser();
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
    const me = await call("GET", "/api/v1/auth/me", { token: user.token });
    expect(me.body.data.user.full_name).toBe("Luisa Gómez");
  });

  it("rejects a blank or too long name with 422 and keeps the old one", async () => {
    const user = await registerUser({ full_name: "Antes" });
    for (const full_name of ["   ", "x".repeat(121), 7]) {
      const res = await call("PATCH", "/api/v1/profiles/me", {
        token: user.token,
        body: { full_name },
      });
      expect(res.status).toBe(422);
      expect(res.body.details[0].path).toBe("full_name");
    }
    const profile = await call("GET", "/api/v1/profiles/me", { token: user.token });
    expect(profile.body.data.full_name).toBe("Antes");
  });

  it("needs a token", async () => {
    expect((await call("GET", "/api/v1/profiles/me")).status).toBe(401);
    expect((await call("PATCH", "/api/v1/profiles/me", { body: { full_name: "X" } })).status).toBe(
      401,
    );
  });
});

describe("unknown routes", () => {
  it("answer 404 with the envelope", async () => {
    const res = await call("GET", "/api/v1/no-existe");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: "Ruta no encontrada." });
  });
});
