/**
 * What the Seguimientos screens change, as their routes' actions do it (routes/follow-ups,
 * follow-ups-new, follow-ups-edit): each change is an intent sent as JSON by a fetcher, one
 * call, one toast. React Router reads the screen again after it.
 */
import type { FollowUp } from "../../../contracts/follow-ups";
import type { ConversationStage } from "../../../contracts/sales";
import { type Refusal } from "~/lib/forms";

/** A rule as its form sends it (a type, not an interface: it travels as JSON). */
export type FollowUpBody = {
  name: string;
  enabled: boolean;
  trigger: { no_reply_minutes: number; label_ids: string[]; stages: ConversationStage[] };
  template: { name: string; language: string; parameters: string[] } | null;
  text: string | null;
  max_per_conversation: number;
};

export type FollowUpChange =
  | { intent: "create"; values: FollowUpBody }
  | { intent: "update"; id: string; values: FollowUpBody }
  /** The list's switch. */
  | { intent: "enable"; id: string; enabled: boolean }
  | { intent: "delete"; id: string };

export type FollowUpActionResult =
  | { ok: true; intent: FollowUpChange["intent"]; followUp: FollowUp | null }
  | (Refusal & { intent: FollowUpChange["intent"] });
