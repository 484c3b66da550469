import { describe, expect, it } from "vitest";
import { SendPace, type Clock } from "../../worker/whatsapp/send-pace";

/** A clock that moves only when someone sleeps on it. */
function fakeClock(): Clock & { at: number } {
  const clock = {
    at: 0,
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.at += ms;
    },
  };
  return clock;
}

describe("the pace of a number shared with the app", () => {
  it("lets 20 sends go in any second and the rest wait their turn, in order", async () => {
    const clock = fakeClock();
    const pace = new SendPace(20, clock);
    const went: { index: number; at: number }[] = [];
    await Promise.all(
      Array.from({ length: 45 }, (_, index) =>
        pace.turn().then(() => went.push({ index, at: clock.now() })),
      ),
    );
    expect(went.map((w) => w.index)).toEqual(Array.from({ length: 45 }, (_, i) => i));
    // No 21 sends within one second; the first 20 go at once.
    for (let i = 0; i + 20 < went.length; i++) {
      expect(went[i + 20]!.at - went[i]!.at).toBeGreaterThanOrEqual(1000);
    }
    expect(went.filter((w) => w.at === 0)).toHaveLength(20);
    expect(went.at(-1)!.at).toBe(2000);
  });

  it("does not wait when the last second had room", async () => {
    const clock = fakeClock();
    const pace = new SendPace(20, clock);
    for (let i = 0; i < 20; i++) await pace.turn();
    clock.at += 1000;
    await pace.turn();
    expect(clock.now()).toBe(1000);
  });
});
