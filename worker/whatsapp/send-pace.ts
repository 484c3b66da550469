/**
 * Meta's throughput per number: a number shared with the WhatsApp Business app sends at most
 * 20 messages a second (contract section 16); past it Meta refuses with 130429. Every send of
 * an organization runs in its store, one object with one memory, so a window of the last
 * second's sends kept there paces them all; a send waits for its turn instead of failing. (An
 * organization still in D1 sends from Worker isolates, each pacing only its own sends.)
 */

/** Messages a second Meta takes from a number shared with the app. */
export const SHARED_NUMBER_PER_SECOND = 20;

const WINDOW_MS = 1000;

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** At most `perSecond` turns in any second, handed out in the order they were asked for. */
export class SendPace {
  /** When each turn of the last second was taken, oldest first. */
  private readonly taken: number[] = [];
  /** The turn the next caller waits behind: callers are served in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock = realClock,
  ) {}

  /** Resolves when a send may go. */
  turn(): Promise<void> {
    const mine = this.queue.then(() => this.take());
    this.queue = mine;
    return mine;
  }

  private async take() {
    for (;;) {
      const now = this.clock.now();
      while (this.taken.length > 0 && now - this.taken[0]! >= WINDOW_MS) this.taken.shift();
      if (this.taken.length < this.perSecond) {
        this.taken.push(now);
        return;
      }
      await this.clock.sleep(WINDOW_MS - (now - this.taken[0]!));
    }
  }
}

const paces = new Map<string, SendPace>();

/** Waits for a turn to send from a number shared with the app (others are not paced here). */
export async function sendTurn(connection: { phoneNumberId: string; coexistence: boolean }) {
  if (!connection.coexistence) return;
  let pace = paces.get(connection.phoneNumberId);
  if (!pace) paces.set(connection.phoneNumberId, (pace = new SendPace(SHARED_NUMBER_PER_SECOND)));
  await pace.turn();
}
