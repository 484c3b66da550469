import { exports } from "cloudflare:workers";
import { expect } from "vitest";

/** A console socket of the user behind `token`, collecting the events it receives. */
export async function connect(token: string) {
  const res = await exports.default.fetch(`http://localhost/ws?token=${token}`, {
    headers: { Upgrade: "websocket" },
  });
  expect(res.status).toBe(101);
  const socket = res.webSocket!;
  const received: { type: string; data: any }[] = [];
  socket.addEventListener("message", (event) => received.push(JSON.parse(String(event.data))));
  socket.accept();
  return { socket, received };
}

/** Time for events in flight to reach the sockets. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 50));
