import { useCallback } from "react";
import { useSubmit } from "react-router";
import type { Mention } from "../../../contracts/team-inbox";

/**
 * The member's own availability ("Disponible" / "Ausente"), as the sidebar's switch sends it to
 * the root route's action (`routes/availability-action.ts`, decision 0145).
 */
export interface AvailabilityChange {
  userId: string;
  available: boolean;
}

/** What the action answers: the availability as saved, or that it was refused (said in a toast). */
export type AvailabilityResult = { ok: true; available: boolean } | { ok: false };

/** A mention being opened, as Menciones' action takes it (`routes/mentions.tsx`). */
export type MentionOpened = Pick<Mention, "id" | "conversation_id">;

/**
 * Opens a mention from anywhere in the console (Menciones' list, the mention's toast and its
 * desktop notice): Menciones' action marks it read, then goes to its conversation (decision
 * 0151). The one way a mention is marked read.
 */
export function useOpenMention() {
  const submit = useSubmit();
  return useCallback(
    ({ id, conversation_id }: MentionOpened) =>
      void submit({ id, conversation_id } satisfies MentionOpened, {
        method: "post",
        action: "/mentions",
        encType: "application/json",
      }),
    [submit],
  );
}
