/**
 * What the settings screens change, as their routes' action does it (`routes/settings-action.ts`,
 * the `clientAction` of /settings, /settings/organization and /settings/user; decisions 0048,
 * 0105): the organization's lists (quick replies, labels, the team, invitations), the
 * organization itself, the person's profile and account, the tracking key and the Meta Business
 * connection (its settings, checks, disconnection and Facebook Login's exchange). React Router reads the screen again after each change; a change the session keeps
 * (the organization, the profile) comes back in the result for `useAuth` to take.
 */
import { useCallback, useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { z } from "zod/mini";
import type { accountDeletionInput, ProfileUpdateInput, Role, User } from "../../../contracts/auth";
import type { quickReplyInput } from "../../../contracts/quick-replies";
import type { invitationInput } from "../../../contracts/members";
import type { labelInput } from "../../../contracts/team-inbox";
import type { Organization, OrganizationUpdateInput } from "../../../contracts/organizations";
import type { BusinessHoursInput } from "../../../contracts/bookings";
import type { whatsappConfigInput } from "../../../contracts/whatsapp";
import type { PaymentIntegrationInput } from "../../../contracts/payments";
import type { BookingFlowState } from "../../../contracts/flows";
import type { BusinessLoginResult } from "~/lib/facebook-sdk";
import type { FieldErrors } from "~/lib/forms";

/** What a section submits to its route (as JSON). */
export type SettingsChange =
  | { intent: "quick-reply.create"; values: z.infer<typeof quickReplyInput> }
  | { intent: "quick-reply.delete"; id: string }
  | { intent: "label.create"; values: z.infer<typeof labelInput> }
  | { intent: "label.update"; id: string; values: { name?: string; color?: string } }
  | { intent: "label.delete"; id: string }
  | { intent: "member.role"; userId: string; role: Role }
  | {
      intent: "member.availability";
      userId: string;
      values: { available?: boolean; max_open?: number | null };
    }
  /** `self`: the caller leaves the organization. */
  | { intent: "member.remove"; userId: string; self: boolean }
  | { intent: "invitation.create"; values: z.infer<typeof invitationInput> }
  | { intent: "invitation.revoke"; id: string }
  /** What the owner allows marketing, kept in the organization's store (decision 0080). */
  | {
      intent: "marketing.update";
      organizationId: string;
      values: Pick<OrganizationUpdateInput, "marketing_budget" | "marketing_frequency">;
    }
  /** The opening hours (object form, decision 0076), the away message and the notice. */
  | {
      intent: "hours.update";
      organizationId: string;
      values: {
        business_hours: BusinessHoursInput;
        away_message: { enabled: boolean; text: string | null };
        min_notice_minutes: number;
      };
    }
  /** A section of the organization's own settings, with that section's toasts. */
  | {
      intent: "organization.update";
      organizationId: string;
      values: OrganizationUpdateInput;
      says: { success: string; failure: string };
    }
  /** Round robin on or off (Asignación automática). */
  | { intent: "auto-assign.update"; organizationId: string; on: boolean }
  | { intent: "profile.update"; values: ProfileUpdateInput }
  | { intent: "tracking-key.rotate" }
  | { intent: "webhook-token.generate" }
  | { intent: "whatsapp.default-agent"; agentId: string | null; agentName: string | null }
  | { intent: "whatsapp.connect"; values: z.infer<typeof whatsappConfigInput> }
  /** Stripe or Mercado Pago, checked with the provider before it is kept (contract section 18). */
  | { intent: "payments.connect"; values: PaymentIntegrationInput }
  | { intent: "payments.disconnect" }
  /** The booking Flow registered and published again on the connected number. */
  | { intent: "booking-flow.register" }
  /** The Meta Business cards: checked with Meta, or disconnected. */
  | { intent: "whatsapp.test" }
  | { intent: "whatsapp.disconnect" }
  | { intent: "pixel.test" }
  | { intent: "pixel.disconnect" }
  /** A test Lead, visible in Events Manager's Test Events tab under the organization's code. */
  | { intent: "pixel.test-event" }
  /**
   * What Facebook Login answered (its popup opened from the click), exchanged for the
   * connections; picked into a plain object type, which is what JSON can carry.
   */
  | { intent: "meta.connect"; login: Pick<BusinessLoginResult, keyof BusinessLoginResult> }
  /** The person's own account erased, after their password (the privacy policy's erasure). */
  | { intent: "account.delete"; values: z.infer<typeof accountDeletionInput> };

/** How a check of a Meta Business card went, kept on the card (the toast goes away). */
export interface ConnectionCheck {
  ok: boolean;
  text: string;
  /** What its success toast says under the title (the number, the pixel's name). */
  detail?: string;
}

/** What a change answers beside `ok`, for the screen or the session to take. */
export interface SettingsAnswer {
  /** A new invitation's single-use link. */
  link?: string | null;
  /** The organization as saved (the session's copy is replaced with it). */
  organization?: Organization;
  /** The profile as saved. */
  user?: User;
  /** The organization's new public tracking key. */
  trackingKey?: string;
  /** Where the booking Flow stands after registering it again. */
  flow?: BookingFlowState;
  /** How a card's check went (Meta answers a failed check too). */
  check?: ConnectionCheck;
  /** What is left to do after Facebook Login connected no number, shown on the tab. */
  pending?: { title: string; text: string } | null;
}

export type SettingsActionResult =
  | ({ ok: true; change: SettingsChange } & SettingsAnswer)
  | { ok: false; change: SettingsChange; fieldErrors: FieldErrors };

/** The caller left the organization: the session is read again, and the console turns to onboarding. */
export const leftOrganization = (result: SettingsActionResult) =>
  result.ok && result.change.intent === "member.remove" && result.change.self;

/**
 * Nothing is read again after this change (the route's `shouldRevalidate`): a check changes
 * nothing the screen shows (its answer is kept on its card), and after the account's deletion
 * there is no session left to read with (the console is left).
 */
export const nothingToReadAgain = (result: unknown) =>
  isResult(result) &&
  result.ok &&
  (result.check !== undefined || result.change.intent === "account.delete");

const isResult = (value: unknown): value is SettingsActionResult =>
  typeof value === "object" && value !== null && "change" in value;

/**
 * A section's way to change settings: `submit` sends a change to the route's action (a
 * fetcher), `run` does the same and resolves with its result once the action answered;
 * `busy` while it runs and the screen reloads, `onResult` hears each change's result once.
 */
export function useSettingsChange(onResult?: (result: SettingsActionResult) => void) {
  const fetcher = useFetcher<SettingsActionResult>();
  const heard = useRef(onResult);
  heard.current = onResult;
  const waiting = useRef<((result: SettingsActionResult) => void) | null>(null);
  useEffect(() => {
    if (!fetcher.data) return;
    heard.current?.(fetcher.data);
    waiting.current?.(fetcher.data);
    waiting.current = null;
  }, [fetcher.data]);
  const { submit: send } = fetcher;
  const submit = useCallback(
    (change: SettingsChange) => send(change, { method: "post", encType: "application/json" }),
    [send],
  );
  const run = useCallback(
    (change: SettingsChange) =>
      new Promise<SettingsActionResult>((resolve) => {
        waiting.current = resolve;
        void submit(change);
      }),
    [submit],
  );
  return { submit, run, busy: fetcher.state !== "idle" };
}
