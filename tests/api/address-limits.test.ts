// Per-address limits (server contract §12): an IPv6 client holds a whole /64 and can pick any
// address in it, so two addresses of one /64 share a limit; an IPv4-mapped address is its IPv4.
import { describe, expect, it } from "vitest";
import { registerUser, uniqueEmail } from "../support/factories";
import { answer, api } from "../support/api";

const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
/** A fresh /64, and a new address in it on each call. */
function subnet() {
  const prefix = `2001:db8:${hex()}:${hex()}`;
  return () => `${prefix}:${hex()}:${hex()}:${hex()}:${hex()}`;
}

const from = (ip: string) => ({ "CF-Connecting-IP": ip });

describe("per-address limits key an IPv6 address by its /64", () => {
  it("sign-ups: ten an hour for the whole /64, whichever of its addresses asks", async () => {
    const address = subnet();
    const register = (ip: string) =>
      answer(
        api().auth.register.$post(
          { json: { email: uniqueEmail("v6"), password: "secreto123", full_name: "Bot" } },
          { headers: from(ip) },
        ),
      );
    for (let i = 0; i < 10; i++) expect((await register(address())).status).toBe(201);
    const blocked = await register(address());
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).not.toBeNull();
    // Another /64 has a window of its own.
    expect((await register(subnet()())).status).toBe(201);
  });

  it("sign-ins: twenty guesses for the whole /64", async () => {
    const address = subnet();
    const guess = (ip: string) =>
      answer(
        api().auth.login.$post(
          { json: { email: uniqueEmail("spray"), password: "mala" } },
          { headers: from(ip) },
        ),
      );
    const guesses = await Promise.all(Array.from({ length: 21 }, () => guess(address())));
    expect(guesses.filter((res) => res.status === 401)).toHaveLength(20);
    expect(guesses.filter((res) => res.status === 429)).toHaveLength(1);
  });

  it("sign-ins: an owner on rotating privacy addresses is at home anywhere in their /64", async () => {
    const user = await registerUser();
    const login = (password: string, ip: string) =>
      answer(
        api().auth.login.$post({ json: { email: user.email, password } }, { headers: from(ip) }),
      );
    const home = subnet();
    expect((await login(user.password, home())).status).toBe(200);

    const attacker = subnet();
    for (let i = 0; i < 5; i++) expect((await login("mala", attacker())).status).toBe(401);
    expect((await login(user.password, attacker())).status).toBe(429);
    // The next privacy address of the owner's /64 is still their usual address.
    expect((await login(user.password, home())).status).toBe(200);
  });

  it("made-up tracking keys: one counter for the /64, and an IPv4-mapped address is its IPv4", async () => {
    const address = subnet();
    const guess = (ip: string) =>
      answer(
        api().tracking.sessions.$post(
          {
            json: {
              tracking_params: {},
              user_agent: "Mozilla/5.0",
              referrer: "",
              landing_page: "",
            },
          },
          { headers: { ...from(ip), "X-Tracking-Key": crypto.randomUUID().replaceAll("-", "") } },
        ),
      );
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await guess(address())).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);

    const v4 = `198.18.${Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 254)}`;
    for (let i = 0; i < 15; i++) expect((await guess(v4)).status).toBe(401);
    for (let i = 0; i < 15; i++) expect((await guess(`::ffff:${v4}`)).status).toBe(401);
    expect((await guess(v4)).status).toBe(429);
  });
});
