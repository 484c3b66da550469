/**
 * The console's one realtime client: a WebSocket to /ws that reconnects with backoff and hands
 * each server event to the live store (`live-store.ts`), the one channel screens hear realtime
 * through (`useLiveEvent`, `useLiveVersion`; decision 0104).
 * Events sent while no socket was open are lost (before the first one opened, or between a
 * drop and the reconnection), so every opening is told to `useRealtimeConnected` and the open
 * screens fetch what they show again. A socket the server closes because the session
 * was revoked (code 4001) is not reopened.
 * The person is told "Conectado en tiempo real" only when a lost connection comes back (the
 * sidebar's badge shows the state all along): never on a first load, and in a toaster of its
 * own (`REALTIME_TOASTER`) at the top of the screen, never over a conversation's thread.
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { toastDone } from "./outcome";
import type { RealtimeEvent } from "../../contracts/realtime";
import { tokenStore } from "./api";
import { live } from "./live-store";
import { REALTIME_TOASTER } from "./toasters";

export type RealtimeStatus = "connecting" | "connected" | "disconnected";

export const RECONNECT = { maxAttempts: 10, initialDelayMs: 1000, maxDelayMs: 30_000 } as const;

/** Delay before reconnect attempt `attempt` (1-based): 1 s, doubling, capped at 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT.initialDelayMs * 2 ** (attempt - 1), RECONNECT.maxDelayMs);
}

/** The server's close code for a revoked session (server contract, section 12). */
export const REVOKED_CLOSE_CODE = 4001;

class RealtimeClient {
  private socket: WebSocket | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A socket of this session opened before: the next opening is a reconnection. */
  private wasConnected = false;
  private stopped = true;
  /** Called when the server revokes the session (the console signs the person out). */
  onRevoked: (() => void) | null = null;
  private status: RealtimeStatus = "disconnected";
  private listeners = new Set<() => void>();
  /** Told each time a socket opens: what came before may have been missed. */
  private openings = new Set<() => void>();

  onOpen = (handler: () => void) => {
    this.openings.add(handler);
    return () => void this.openings.delete(handler);
  };

  getStatus = () => this.status;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, "logout");
    this.socket = null;
    this.attempts = 0;
    this.wasConnected = false;
    this.setStatus("disconnected");
  }

  private setStatus(status: RealtimeStatus) {
    this.status = status;
    for (const listener of this.listeners) listener();
  }

  private open() {
    const token = tokenStore.get();
    if (!token) return this.stop();
    const url = new URL("/ws", window.location.href);
    url.protocol = url.protocol.replace("http", "ws");
    url.searchParams.set("token", token);

    this.setStatus("connecting");
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempts = 0;
      this.setStatus("connected");
      for (const handler of this.openings) handler();
      if (this.wasConnected) {
        toastDone("Conectado en tiempo real", {
          id: "realtime-reconnected",
          description: "Se recuperó la conexión",
          duration: 3000,
          toasterId: REALTIME_TOASTER,
        });
      }
      this.wasConnected = true;
    });
    socket.addEventListener("message", (message) => {
      let event: RealtimeEvent;
      try {
        event = JSON.parse(String(message.data)) as RealtimeEvent;
      } catch {
        return;
      }
      // The session is over: the same as the 4001 close that follows (which a proxy may drop).
      if (event.type === "session_ended") {
        // A socket already left behind (signed out, replaced) has nothing left to end.
        if (this.socket !== socket) return;
        this.socket = null;
        socket.close();
        return this.revoked();
      }
      // The store records its copies, then tells the screens that listen.
      live.record(event);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === REVOKED_CLOSE_CODE) return this.revoked();
      this.setStatus("disconnected");
      this.scheduleReconnect();
    });
  }

  /** The session is over: no reconnection with its token, which is dropped. */
  private revoked() {
    this.stop();
    tokenStore.clear();
    this.onRevoked?.();
  }

  private scheduleReconnect() {
    if (this.stopped) return;
    if (this.attempts >= RECONNECT.maxAttempts) {
      console.warn("Realtime: se alcanzó el máximo de reintentos de conexión");
      return;
    }
    this.attempts += 1;
    this.timer = setTimeout(() => this.open(), reconnectDelay(this.attempts));
  }
}

export const realtime = new RealtimeClient();

/**
 * Keeps the socket open while the component using it is mounted (the console layout);
 * `onRevoked` runs when the server ends the session.
 */
export function useRealtimeConnection(enabled: boolean, onRevoked: () => void) {
  const latest = useRef(onRevoked);
  latest.current = onRevoked;
  useEffect(() => {
    if (!enabled) return;
    realtime.onRevoked = () => latest.current();
    realtime.start();
    return () => {
      realtime.onRevoked = null;
      realtime.stop();
    };
  }, [enabled]);
}

/**
 * Calls `handler` each time a socket opens (after a drop, or the first one after the screen
 * loaded): time to fetch what may have been missed.
 */
export function useRealtimeConnected(handler: () => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => realtime.onOpen(() => latest.current()), []);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(realtime.subscribe, realtime.getStatus, () => "disconnected");
}
