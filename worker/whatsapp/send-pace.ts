/**
 * Meta's throughput per number: 80 messages a second by default, 20 for a number shared with
 * the WhatsApp Business app (contract sections 16 and 17); past it Meta refuses with 130429.
 * Every send of an organization runs in its store, one object with one memory, so a window of
 * the last second's sends kept there paces them all, a broadcast's and the team's and the AI's
 * alike; a send waits for its turn instead of failing. (An organization still in D1 sends
 * conversations' messages from Worker isolates, each pacing only its own sends; its broadcasts
 * are sent by its store.)
 */

/** Messages a second Meta takes from a number by default. */
export const NUMBER_PER_SECOND = 80;
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

/** Waits for a turn to send from the number (its pace follows whether it is shared). */
export async function sendTurn(connection: { phoneNumberId: string; coexistence: boolean }) {
  const perSecond = connection.coexistence ? SHARED_NUMBER_PER_SECOND : NUMBER_PER_SECOND;
  const key = `${connection.phoneNumberId}:${perSecond}`;
  let pace = paces.get(key);
  if (!pace) paces.set(key, (pace = new SendPace(perSecond)));
  await pace.turn();
}
