/**
 * The settings screens' writes: the `clientAction` of /settings, /settings/organization and
 * /settings/user (decisions 0048, 0105). Each change is one intent, one call and its toasts;
 * a refusal answers the server's per-field messages. The changes' shapes and the sections' hook
 * are in `components/settings/actions.ts`.
 */
import type {
  ConnectionCheck,
  SettingsActionResult,
  SettingsAnswer,
  SettingsChange,
} from "~/components/settings/actions";
import { ApiError, client, data, errorMessage } from "~/lib/api";
import { SIGNUP_MESSAGES, type BusinessLoginResult } from "~/lib/facebook-sdk";
import { serverFieldErrors, type FieldErrors } from "~/lib/forms";
import { toastDone, toastFailed, toastWarning } from "~/lib/outcome";
import { realtime } from "~/lib/realtime";

/** Facebook Login's exchange says how each of its connections went (`connectMeta`). */
type OneCallChange = Exclude<SettingsChange, { intent: "meta.connect" }>;
type Intent = OneCallChange["intent"];

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
  // A check's failure is its answer too (`checked`), said with its card's outcome.
  "whatsapp.test": {
    success: "Conexión con WhatsApp verificada",
    failure: "Error al probar WhatsApp",
  },
  "whatsapp.disconnect": {
    success: "WhatsApp desconectado",
    failure: "Error al desconectar WhatsApp",
  },
  "pixel.test": {
    success: "Conexión con Meta Pixel verificada",
    failure: "Error al probar Meta Pixel",
  },
  "pixel.disconnect": {
    success: "Meta Pixel desconectado",
    failure: "Error al desconectar Meta Pixel",
  },
  "pixel.test-event": {
    success: "Evento de prueba enviado a Meta",
    failure: "Error al enviar el evento de prueba",
  },
  "account.delete": { success: "Cuenta eliminada", failure: "Error al eliminar la cuenta" },
};

const member = client.organizations.members[":userId"];

/**
 * A check of a Meta Business card: Meta's answer, passed or not (refused included), is how it
 * went, shown on the card; `passed` words a pass, `failedText` a failure Meta gave no words.
 */
async function checked<Result extends { success: boolean; error?: string | null }>(
  call: () => Promise<Result>,
  passed: (result: Result) => Omit<ConnectionCheck, "ok">,
  failedText: string,
): Promise<SettingsAnswer> {
  try {
    const result = await call();
    return {
      check: result.success
        ? { ok: true, ...passed(result) }
        : { ok: false, text: result.error || failedText },
    };
  } catch (error) {
    return { check: { ok: false, text: errorMessage(error) } };
  }
}

/** The account's erasure: the server ends this session's socket, which is not news to tell. */
async function deleteAccount(values: { password: string }) {
  // Leaving on purpose: "Tu sesión se ha cerrado" would race the way out of the console.
  realtime.stop();
  try {
    await data(client.profiles.me.$delete({ json: values }));
  } catch (error) {
    realtime.start();
    throw error;
  }
}

/** The call each change makes; answers what the screen needs back (an invitation's link). */
async function perform(change: OneCallChange): Promise<SettingsAnswer> {
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
    case "whatsapp.test":
      return checked(
        () => data(client["whatsapp-config"].test.$post()),
        ({ phone_number }) => ({
          text: phone_number
            ? `WhatsApp responde con el número ${phone_number}.`
            : "WhatsApp responde correctamente.",
          detail: phone_number ?? undefined,
        }),
        "Error al probar WhatsApp",
      );
    case "whatsapp.disconnect":
      await data(client["whatsapp-config"].$delete());
      return {};
    case "pixel.test":
      return checked(
        () => data(client["meta-config"].test.$post()),
        ({ pixel_name }) => ({
          text: pixel_name
            ? `El pixel «${pixel_name}» responde correctamente.`
            : "El pixel responde correctamente.",
          detail: pixel_name ?? undefined,
        }),
        "Error al probar Meta Pixel",
      );
    case "pixel.disconnect":
      await data(client["meta-config"].$delete());
      return {};
    case "pixel.test-event":
      return checked(
        () => data(client["meta-config"]["test-conversions"].$post()),
        ({ test_event_code }) => ({
          text: `Meta recibió el evento de prueba. Búscalo en «Probar eventos» del Administrador de eventos con el código ${test_event_code}.`,
        }),
        "Meta no aceptó el evento de prueba",
      );
    case "account.delete":
      await deleteAccount(change.values);
      return {};
  }
}

/**
 * Facebook Login's code exchanged for what it connects: the number (when the signup named
 * one) and the pixel, each made or refused on its own, with its own toast. Answers what is
 * left to do when no number was connected, which the tab keeps in view until the next attempt
 * (a toast alone would go before it is read; decision 0074).
 */
async function connectMeta(login: BusinessLoginResult): Promise<SettingsAnswer["pending"]> {
  const connectPixel = () =>
    data(client["meta-config"].connect.$post({ json: { code: login.code } }));
  if (login.withoutNumber) {
    // No number to connect yet: the code still connects the pixel.
    const pending = {
      title: SIGNUP_MESSAGES.withoutNumberTitle,
      text: SIGNUP_MESSAGES.withoutNumber,
    };
    const [pixel] = await Promise.allSettled([connectPixel()]);
    if (pixel.status === "fulfilled")
      toastDone("Conectado con Meta Business", `Meta Pixel (${pixel.value.pixel_id})`);
    toastWarning(pending.title, pending.text);
    if (pixel.status === "rejected")
      toastWarning("No se pudo conectar Meta Pixel", errorMessage(pixel.reason));
    return pending;
  }
  const [whatsapp, pixel] = await Promise.allSettled([
    data(
      client.whatsapp.oauth.exchange.$post({
        json: {
          code: login.code,
          ...(login.wabaId ? { waba_id: login.wabaId } : {}),
          ...(login.phoneNumberId ? { phone_number_id: login.phoneNumberId } : {}),
          ...(login.appOnboarding ? { coexistence: true } : {}),
        },
      }),
    ),
    connectPixel(),
  ]);
  // The number Meta returned is not verified yet: what to do stays on the tab.
  const unverified =
    whatsapp.status === "rejected" &&
    whatsapp.reason instanceof ApiError &&
    whatsapp.reason.code === "number_not_verified";
  const pending =
    whatsapp.status === "rejected" && unverified
      ? { title: SIGNUP_MESSAGES.unverifiedTitle, text: errorMessage(whatsapp.reason) }
      : null;
  if (whatsapp.status === "rejected" && pixel.status === "rejected") {
    toastFailed("No se pudo conectar ningún servicio de Meta Business", whatsapp.reason);
    return pending;
  }
  const connected = [
    whatsapp.status === "fulfilled" && `WhatsApp (${whatsapp.value.phone_number})`,
    pixel.status === "fulfilled" && `Meta Pixel (${pixel.value.pixel_id})`,
  ].filter(Boolean);
  toastDone("Conectado con Meta Business", connected.join(" y "));
  if (whatsapp.status === "rejected")
    toastWarning(
      unverified ? SIGNUP_MESSAGES.unverifiedTitle : "No se pudo conectar WhatsApp",
      errorMessage(whatsapp.reason),
    );
  if (pixel.status === "rejected")
    toastWarning("No se pudo conectar Meta Pixel", errorMessage(pixel.reason));
  return pending;
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

/** A check's toast: its card's outcome, passed or failed. */
function checkOutcome(check: ConnectionCheck, toasts: { success?: string; failure: string }) {
  if (!check.ok) toastFailed(toasts.failure, check.text);
  else if (toasts.success) toastDone(toasts.success, check.detail);
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
function saysOf(change: OneCallChange): { success?: string; failure: string } {
  if (change.intent === "organization.update") return change.says;
  if (change.intent === "auto-assign.update")
    return {
      success: change.on ? "Reparto automático activado" : "Reparto automático desactivado",
      failure: TOASTS[change.intent].failure,
    };
  return TOASTS[change.intent];
}

/** A wrong password is said under its field alone (the account's deletion). */
const saidByItsField = (change: OneCallChange, fieldErrors: FieldErrors) =>
  change.intent === "account.delete" && fieldErrors.password !== undefined;

/** Makes the change and says how it went (toast); a refusal brings its per-field messages. */
async function settingsAction(change: SettingsChange): Promise<SettingsActionResult> {
  if (change.intent === "meta.connect")
    return { ok: true, change, pending: await connectMeta(change.login) };
  const toasts = saysOf(change);
  try {
    const answer = await perform(change);
    if (answer.check) checkOutcome(answer.check, toasts);
    else if (toasts.success) toastDone(toasts.success, detailOf(change));
    flowOutcome(answer);
    return { ok: true, change, ...answer };
  } catch (error) {
    const fieldErrors = serverFieldErrors(error);
    if (!saidByItsField(change, fieldErrors)) toastFailed(toasts.failure, error);
    return { ok: false, change, fieldErrors };
  }
}

/** The route's action: the change the section sent as JSON. */
export async function settingsClientAction({ request }: { request: Request }) {
  return settingsAction((await request.json()) as SettingsChange);
}
