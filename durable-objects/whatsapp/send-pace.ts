/**
 * Meta's throughput per number: 80 messages a second by default, 20 for a number shared with
 * the WhatsApp Business app (contract sections 16 and 17); past it Meta refuses with 130429.
 * Every send of an organization runs in its store, one object with one memory, so turns kept
 * there, evenly spaced a little below that rate, pace them all, a broadcast's and the team's and
 * the AI's alike; a send waits for its turn instead of failing.
 */

/**
 * Sends asked of Meta at once by a job (a broadcast's, the follow-ups'), each still waiting for
 * its turn: as many as 80 a second keeps in flight while Meta takes up to 400 ms to answer (at
 * 8, a 200 ms answer held a broadcast to 40 a second).
 */
export const SENDS_IN_FLIGHT = 32;

/**
 * How long a job's sends wait after Meta refused one for the number's throughput (130429): the
 * refused one goes back to wait, never failed, and the job goes on this much later.
 */
export const THROTTLED_PAUSE_MS = 30_000;

/**
 * Runs `work` on the items in order, at most `limit` at once, a new one as soon as one ends:
 * none is started once `stop` says so.
 */
export async function inPool<T>(
  items: T[],
  limit: number,
  stop: () => boolean,
  work: (item: T) => Promise<unknown>,
) {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Messages a second Meta takes from a number by default. */
export const NUMBER_PER_SECOND = 80;
/** Messages a second Meta takes from a number shared with the app. */
export const SHARED_NUMBER_PER_SECOND = 20;

const WINDOW_MS = 1000;
/**
 * The share of Meta's rate the turns use: the network's jitter may deliver two sends closer
 * together than they left, and Meta counts them as they arrive.
 */
const HEADROOM = 0.95;

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Turns spaced evenly, in the order they were asked for: never a burst. (A window of the last
 * second's sends let 80 go at once after any pause, and Meta's side saw more than 80 in a
 * second at the start of each run of a broadcast.) A turn asked for when the number has been
 * idle for a spacing goes at once.
 */
export class SendPace {
  /** Milliseconds between two turns. */
  readonly spacing: number;
  /** The earliest instant the next turn may be taken. */
  private next = Number.NEGATIVE_INFINITY;
  /** The turn the next caller waits behind: callers are served in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    perSecond: number,
    private readonly clock: Clock = realClock,
  ) {
    this.spacing = WINDOW_MS / (perSecond * HEADROOM);
  }

  /** Resolves when a send may go. */
  turn(): Promise<void> {
    const mine = this.queue.then(() => this.take());
    this.queue = mine;
    return mine;
  }

  private async take() {
    const now = this.clock.now();
    const at = Math.max(now, this.next);
    this.next = at + this.spacing;
    if (at > now) await this.clock.sleep(at - now);
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
