/**
 * The settings screens' writes: the `clientAction` of /settings, /settings/organization and
 * /settings/user (decisions 0048, 0105). Each change is one intent, one call and its toasts;
 * a refusal answers the server's per-field messages. The changes' shapes and the sections' hook
 * are in `components/settings/actions.ts`.
 */
import type {
  SettingsActionResult,
  SettingsAnswer,
  SettingsChange,
} from "~/components/settings/actions";
import { client, data } from "~/lib/api";
import { serverFieldErrors } from "~/lib/forms";
import { toastDone, toastFailed, toastWarning } from "~/lib/outcome";

type Intent = SettingsChange["intent"];

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
  // Its section's own texts come with the change (`says`).
  "organization.update": { failure: "Error al guardar" },
  "auto-assign.update": { failure: "No se pudo cambiar el reparto" },
  "profile.update": {
    success: "Perfil actualizado correctamente",
    failure: "Error al actualizar el perfil",
  },
  "tracking-key.rotate": {
    success: "Clave de tracking regenerada",
    failure: "No se pudo regenerar la clave",
  },
  "webhook-token.generate": {
    success: "Token de verificación generado",
    failure: "Error al generar el token de verificación",
  },
  "whatsapp.default-agent": {
    success: "Agente por defecto actualizado",
    failure: "Error al actualizar el agente por defecto",
  },
  "whatsapp.connect": { success: "WhatsApp conectado", failure: "Error al conectar WhatsApp" },
  "payments.connect": {
    success: "Proveedor de pagos conectado",
    failure: "No se pudo conectar el proveedor de pagos",
  },
  "payments.disconnect": {
    success: "Proveedor de pagos desconectado",
    failure: "No se pudo desconectar el proveedor de pagos",
  },
  // Published or not, the answer says it (`flowOutcome`).
  "booking-flow.register": { failure: "No se pudo registrar el formulario de reservas" },
};

const member = client.organizations.members[":userId"];

/** The call each change makes; answers what the screen needs back (an invitation's link). */
async function perform(change: SettingsChange): Promise<SettingsAnswer> {
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
    case "organization.update":
      return {
        organization: await data(
          client.organizations[":id"].$patch({
            param: { id: change.organizationId },
            json: change.values,
          }),
        ),
      };
    case "auto-assign.update":
      return {
        organization: await data(
          client.organizations[":id"].$patch({
            param: { id: change.organizationId },
            json: { auto_assign: change.on ? "round_robin" : "off" },
          }),
        ),
      };
    case "profile.update": {
      const profile = await data(client.profiles.me.$patch({ json: change.values }));
      return { user: { id: profile.id, email: profile.email, full_name: profile.full_name } };
    }
    case "tracking-key.rotate":
      return { trackingKey: (await data(client.tracking.key.rotate.$post())).tracking_key };
    case "webhook-token.generate":
      await data(client["whatsapp-config"]["generate-webhook-token"].$post());
      return {};
    case "whatsapp.default-agent":
      await data(client["whatsapp-config"].$patch({ json: { default_agent_id: change.agentId } }));
      return {};
    case "whatsapp.connect":
      await data(client["whatsapp-config"].$post({ json: change.values }));
      return {};
    case "payments.connect":
      await data(client.integrations.payments.$put({ json: change.values }));
      return {};
    case "payments.disconnect":
      await data(client.integrations.payments.$delete());
      return {};
    case "booking-flow.register":
      return { flow: await data(client.whatsapp["booking-flow"].$post()) };
  }
}

/** A Flow registered again answers 200 even when Meta refused a step: its error says which. */
function flowOutcome({ flow }: SettingsAnswer) {
  if (!flow) return;
  if (flow.published) toastDone("Formulario de reservas publicado");
  else
    toastWarning(
      "El formulario de reservas no está publicado",
      flow.error ?? "Se enviará la lista de horarios libres en su lugar.",
    );
}

/** The sentence under a success toast, where the change has one. */
function detailOf(change: SettingsChange): string | undefined {
  switch (change.intent) {
    case "tracking-key.rotate":
      return "Pega el fragmento nuevo en todas tus páginas.";
    case "whatsapp.default-agent":
      return change.agentName
        ? `Las conversaciones nuevas se asignarán a ${change.agentName}.`
        : "Las conversaciones nuevas quedarán sin asignar.";
    case "whatsapp.connect":
      return change.values.phone_number ?? change.values.phone_number_id;
    default:
      return undefined;
  }
}

/** The titles of a change's toasts: its section's own, or the table's. */
function saysOf(change: SettingsChange): { success?: string; failure: string } {
  if (change.intent === "organization.update") return change.says;
  if (change.intent === "auto-assign.update")
    return {
      success: change.on ? "Reparto automático activado" : "Reparto automático desactivado",
      failure: TOASTS[change.intent].failure,
    };
  return TOASTS[change.intent];
}

/** Makes the change and says how it went (toast); a refusal brings its per-field messages. */
async function settingsAction(change: SettingsChange): Promise<SettingsActionResult> {
  const toasts = saysOf(change);
  try {
    const answer = await perform(change);
    if (toasts.success) toastDone(toasts.success, detailOf(change));
    flowOutcome(answer);
    return { ok: true, change, ...answer };
  } catch (error) {
    toastFailed(toasts.failure, error);
    return { ok: false, change, fieldErrors: serverFieldErrors(error) };
  }
}

/** The route's action: the change the section sent as JSON. */
export async function settingsClientAction({ request }: { request: Request }) {
  return settingsAction((await request.json()) as SettingsChange);
}
