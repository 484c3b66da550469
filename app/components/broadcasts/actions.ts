/**
 * What the Difusiones screens change, as their routes' actions do it (routes/broadcasts-new,
 * broadcasts-edit and broadcast): each change is an intent sent as JSON by a fetcher or a
 * form, one call, one toast. React Router reads the screen again after it.
 */
import type { AudienceCriteria, Broadcast, SendInput } from "../../../contracts/broadcasts";
import { type Refusal } from "~/lib/forms";

/** A broadcast as its form sends it (a type, not an interface: it travels as JSON). */
export type BroadcastBody = {
  name: string;
  template: { name: string; language: string; parameters: string[] };
  audience: { [K in keyof AudienceCriteria]: AudienceCriteria[K] };
  send_at: string | null;
};

/** The changes of a broadcast's life after it is saved. */
export const LIFE_INTENTS = ["send", "pause", "resume", "cancel"] as const;
type LifeIntent = (typeof LIFE_INTENTS)[number];

export type BroadcastChange =
  | { intent: "create"; values: BroadcastBody }
  | { intent: "update"; id: string; values: BroadcastBody }
  | { intent: "delete"; id: string }
  | { intent: Exclude<LifeIntent, "send">; id: string }
  /** Above 1,000 recipients the send carries the preview's figures the manager confirmed. */
  | { intent: "send"; id: string; confirm: SendInput };

export type BroadcastActionResult =
  | { ok: true; intent: BroadcastChange["intent"]; broadcast: Broadcast | null }
  | (Refusal & { intent: BroadcastChange["intent"] });

/** Submits a change to the route's action as JSON (a fetcher's or the router's `submit`). */
export const asJson = { method: "post", encType: "application/json" } as const;
