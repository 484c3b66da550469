import { DurableObject } from "cloudflare:workers";
import type { Env } from "../worker/env";
import type { RealtimeEvent } from "../worker/realtime/contract";

/**
 * One instance per organization (named by its id). Holds that organization's console
 * sockets with the hibernation API, so idle sockets cost nothing, and fans out events.
 */
export class OrganizationHub extends DurableObject<Env> {
  /** Accepts an already-authenticated upgrade (the Worker checked the token). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const userId = request.headers.get("X-User-Id") ?? "unknown";
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [userId]);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends one event to every socket of this organization; returns how many got it. */
  async publish(event: RealtimeEvent): Promise<number> {
    const payload = JSON.stringify(event);
    let delivered = 0;
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(payload);
        delivered++;
      } catch {
        // A socket closing at this very moment: its close handler cleans it up.
      }
    }
    return delivered;
  }

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    // The console only listens; a ping keeps proxies from closing an idle socket.
    if (message === "ping") socket.send(JSON.stringify({ type: "pong" }));
  }

  override async webSocketClose(socket: WebSocket, code: number) {
    try {
      socket.close(code === 1005 ? 1000 : code, "closing");
    } catch {
      // Already closed.
    }
  }
}
