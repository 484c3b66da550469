/**
 * What the settings screens change in the organization's lists (quick replies, labels, the
 * team, invitations) and its marketing limits, as their routes' action does it (routes/settings.tsx and
 * routes/settings-organization.tsx), like the agents screen (decision 0048). React Router
 * reads the screen again after each change.
 */
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { toastDone, toastFailed } from "~/lib/outcome";
import type { z } from "zod";
import type { Role } from "../../../worker/auth/contract";
import type { quickReplyInput } from "../../../worker/conversations/quick-replies-contract";
import type { invitationInput } from "../../../worker/organizations/members-contract";
import type { labelInput } from "../../../worker/team-inbox/contract";
import type { OrganizationUpdateInput } from "../../../worker/organizations/contract";
import type { BusinessHoursInput } from "../../../worker/bookings/contract";
import { client, data } from "~/lib/api";
import { serverFieldErrors, type FieldErrors } from "~/lib/forms";

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
    };

type Intent = SettingsChange["intent"];

export type SettingsActionResult =
  | {
      ok: true;
      change: SettingsChange;
      /** A new invitation's single-use link. */
      link?: string | null;
    }
  | { ok: false; change: SettingsChange; fieldErrors: FieldErrors };

/** The caller left the organization: the session is read again, and the console turns to onboarding. */
export const leftOrganization = (result: SettingsActionResult) =>
  result.ok && result.change.intent === "member.remove" && result.change.self;

/** The toasts of each change; a change without a success toast shows itself on the screen. */
const TOASTS: Record<Intent, { success?: string; failure: string }> = {
  "quick-reply.create": {
    success: "Respuesta rápida guardada",
    failure: "Error al guardar la respuesta rápida",
  },
  "quick-reply.delete": { failure: "Error al eliminar la respuesta rápida" },
  "label.create": { success: "Etiqueta creada", failure: "Error al crear la etiqueta" },
  "label.update": { failure: "Error al guardar la etiqueta" },
  "label.delete": { success: "Etiqueta eliminada", failure: "Error al eliminar la etiqueta" },
  "member.role": { success: "Rol actualizado", failure: "No se pudo cambiar el rol" },
  "member.availability": { failure: "No se pudo guardar" },
  "member.remove": { success: "Miembro eliminado", failure: "No se pudo eliminar al miembro" },
  "invitation.create": {
    success: "Invitación creada",
    failure: "No se pudo crear la invitación",
  },
  "invitation.revoke": {
    success: "Invitación revocada",
    failure: "No se pudo revocar la invitación",
  },
  "marketing.update": {
    success: "Límites de marketing actualizados",
    failure: "Error al guardar los límites de marketing",
  },
  "hours.update": {
    success: "Horario de atención actualizado",
    failure: "Error al guardar el horario de atención",
  },
};

const member = client.organizations.members[":userId"];

/** The call each change makes; answers what the screen needs back (an invitation's link). */
async function perform(change: SettingsChange): Promise<{ link?: string | null }> {
  switch (change.intent) {
    case "quick-reply.create":
      await data(client["quick-replies"].$post({ json: change.values }));
      return {};
    case "quick-reply.delete":
      await data(client["quick-replies"][":id"].$delete({ param: { id: change.id } }));
      return {};
    case "label.create":
      await data(client.labels.$post({ json: change.values }));
      return {};
    case "label.update":
      await data(client.labels[":id"].$patch({ param: { id: change.id }, json: change.values }));
      return {};
    case "label.delete":
      await data(client.labels[":id"].$delete({ param: { id: change.id } }));
      return {};
    case "member.role":
      await data(member.$patch({ param: { userId: change.userId }, json: { role: change.role } }));
      return {};
    case "member.availability":
      await data(member.$patch({ param: { userId: change.userId }, json: change.values }));
      return {};
    case "member.remove":
      await data(member.$delete({ param: { userId: change.userId } }));
      return {};
    case "invitation.create": {
      const invitation = await data(
        client.organizations.invitations.$post({ json: change.values }),
      );
      return { link: invitation.url ?? null };
    }
    case "invitation.revoke":
      await data(client.organizations.invitations[":id"].$delete({ param: { id: change.id } }));
      return {};
    case "marketing.update":
    case "hours.update":
      await data(
        client.organizations[":id"].$patch({
          param: { id: change.organizationId },
          json: change.values,
        }),
      );
      return {};
  }
}

/** Makes the change and says how it went (toast); a refusal brings its per-field messages. */
export async function settingsAction(change: SettingsChange): Promise<SettingsActionResult> {
  const toasts = TOASTS[change.intent];
  try {
    const answer = await perform(change);
    if (toasts.success) toastDone(toasts.success);
    return { ok: true, change, ...answer };
  } catch (error) {
    toastFailed(toasts.failure, error);
    return { ok: false, change, fieldErrors: serverFieldErrors(error) };
  }
}

/**
 * A section's way to change settings: `submit` sends a change to the route's action, `busy`
 * while it runs and the screen reloads, `onResult` hears each change's result once.
 */
export function useSettingsChange(onResult?: (result: SettingsActionResult) => void) {
  const fetcher = useFetcher<SettingsActionResult>();
  const heard = useRef(onResult);
  heard.current = onResult;
  useEffect(() => {
    if (fetcher.data) heard.current?.(fetcher.data);
  }, [fetcher.data]);
  return {
    submit: (change: SettingsChange) =>
      fetcher.submit(change, { method: "post", encType: "application/json" }),
    busy: fetcher.state !== "idle",
  };
}
