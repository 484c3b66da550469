import { exports } from "cloudflare:workers";
import { expect } from "vitest";

export interface ReceivedEvent {
  type: string;
  data: any;
}

/** Asks `/ws` to upgrade with `token`; the answer's status (101 when a socket opened). */
export async function upgrade(token: string) {
  return exports.default.fetch(`http://localhost/ws?token=${token}`, {
    headers: { Upgrade: "websocket" },
  });
}

/**
 * A console socket of the user behind `token`, collecting the events it receives; `closed`
 * settles with the close code and reason the server sent.
 */
export async function connect(token: string) {
  const res = await upgrade(token);
  expect(res.status).toBe(101);
  const socket = res.webSocket!;
  const received: ReceivedEvent[] = [];
  const waiting: (() => void)[] = [];
  socket.addEventListener("message", (event) => {
    received.push(JSON.parse(String(event.data)));
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener("close", (event) => {
      resolve({ code: event.code, reason: event.reason });
    });
  });
  socket.accept();

  /** The first event received that matches, now or when it arrives. */
  async function receive(match: (event: ReceivedEvent) => boolean) {
    for (;;) {
      const found = received.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }
  return { socket, received, closed, receive };
}

/** Time for events in flight to reach the sockets. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
