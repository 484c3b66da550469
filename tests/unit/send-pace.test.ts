import { describe, expect, it } from "vitest";
import { SendPace, type Clock } from "../../durable-objects/whatsapp/send-pace";

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

/** Asks `count` turns at once; when each went, in the order they went. */
async function turns(pace: SendPace, clock: Clock, count: number) {
  const went: { index: number; at: number }[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      pace.turn().then(() => went.push({ index, at: clock.now() })),
    ),
  );
  return went;
}

describe("a number's pace", () => {
  it("spaces sends evenly, in order, below the rate in any second: never a burst", async () => {
    const clock = fakeClock();
    const pace = new SendPace(20, clock);
    const went = await turns(pace, clock, 45);
    expect(went.map((w) => w.index)).toEqual(Array.from({ length: 45 }, (_, i) => i));
    // The first goes at once, the others a spacing apart (a little over 50 ms at 20 a second).
    expect(went[0]!.at).toBe(0);
    expect(pace.spacing).toBeGreaterThan(50);
    expect(pace.spacing).toBeLessThan(55);
    for (let i = 1; i < went.length; i++) {
      expect(went[i]!.at - went[i - 1]!.at).toBeCloseTo(pace.spacing);
    }
    // Any 20 of them in a row span a whole second (to the float's last digit): no second holds 20.
    for (let i = 0; i + 19 < went.length; i++) {
      expect(went[i + 19]!.at - went[i]!.at).toBeGreaterThan(1000 - 1e-9);
    }
  });

  it("lets a send go at once when the number has been idle, and not before its spacing", async () => {
    const clock = fakeClock();
    const pace = new SendPace(80, clock);
    await turns(pace, clock, 10);
    const afterTen = clock.now();
    clock.at += 1000;
    await pace.turn();
    expect(clock.now()).toBe(afterTen + 1000);
    // The next one waits its spacing, however many were asked for.
    await pace.turn();
    expect(clock.now()).toBeCloseTo(afterTen + 1000 + pace.spacing);
  });
});
