/**
 * The Facebook JavaScript SDK for "Conectar con Meta Business": loaded once, initialised
 * with the server's Meta app, and a Facebook Login for Business (Embedded Signup) that
 * resolves the short-lived authorization code plus, when the signup popup reports them,
 * the WhatsApp Business Account and phone number the user picked.
 *
 * When `window.FB` already exists (the browser tests install a stand-in before the page
 * loads) no script tag is injected: the existing object is used as it is.
 */

export const SDK_URL = "https://connect.facebook.net/es_ES/sdk.js";
/** Spec §9: wait up to 10 s for the SDK, polling every 100 ms. */
export const SDK_WAIT_MS = 10_000;
export const SDK_POLL_MS = 100;
const SCRIPT_ID = "facebook-jssdk";

/** Spec §8 "SDK" messages, verbatim. */
export const SDK_MESSAGES = {
  loadFailed: "Error al cargar el SDK de Facebook. Por favor recarga la página.",
  notLoaded: "SDK de Facebook no está cargado",
  noPermissions: "No se otorgaron los permisos necesarios",
  cancelled: "Autorización cancelada por el usuario",
} as const;

/** Spec §4 "External connect flow": the scopes asked when there is no login configuration. */
const FALLBACK_SCOPES = [
  "whatsapp_business_management",
  "whatsapp_business_messaging",
  "business_management",
  "ads_management",
  "ads_read",
].join(",");

const SIGNUP_ORIGINS = new Set(["https://www.facebook.com", "https://web.facebook.com"]);

export interface FacebookInitParams {
  appId: string;
  version: string;
  xfbml?: boolean;
  cookie?: boolean;
}

export interface FacebookLoginOptions {
  config_id?: string;
  scope?: string;
  response_type?: "code";
  override_default_response_type?: boolean;
  /** Embedded Signup v4: only the flow (`featureType`); the version is the configuration's. */
  extras?: { featureType?: string };
}

export interface FacebookLoginResponse {
  /** "connected", "not_authorized" or "unknown". */
  status: string;
  authResponse?: {
    code?: string | null;
    accessToken?: string | null;
    userID?: string | null;
  } | null;
}

/** The part of the SDK the console uses. */
export interface FacebookSdk {
  init(params: FacebookInitParams): void;
  login(callback: (response: FacebookLoginResponse) => void, options?: FacebookLoginOptions): void;
}

declare global {
  interface Window {
    FB?: FacebookSdk;
  }
}

export interface FacebookAppConfig {
  appId: string;
  /** Graph API version, such as "v25.0". */
  version: string;
}

let loading: Promise<FacebookSdk> | null = null;
let initializedAppId: string | null = null;

/** Loads the SDK once (or takes the existing `window.FB`) and initialises it for the app. */
export async function loadFacebookSdk(config: FacebookAppConfig): Promise<FacebookSdk> {
  loading ??= waitForSdk().catch((error: unknown) => {
    // A later call (after the user fixes the network or an ad blocker) may try again.
    loading = null;
    throw error;
  });
  const fb = await loading;
  if (initializedAppId !== config.appId) {
    fb.init({ appId: config.appId, version: config.version, xfbml: false, cookie: false });
    initializedAppId = config.appId;
  }
  return fb;
}

function waitForSdk(): Promise<FacebookSdk> {
  if (typeof window === "undefined") return Promise.reject(new Error(SDK_MESSAGES.notLoaded));
  if (window.FB) return Promise.resolve(window.FB);

  let script = document.getElementById(SCRIPT_ID);
  if (!script) {
    const tag = document.createElement("script");
    tag.id = SCRIPT_ID;
    tag.src = SDK_URL;
    tag.async = true;
    tag.defer = true;
    tag.crossOrigin = "anonymous";
    document.head.appendChild(tag);
    script = tag;
  }

  return new Promise<FacebookSdk>((resolve, reject) => {
    const started = Date.now();
    const fail = () => {
      window.clearInterval(timer);
      script?.removeEventListener("error", fail);
      // Without the tag a later attempt injects it again.
      script?.remove();
      reject(new Error(SDK_MESSAGES.loadFailed));
    };
    const timer = window.setInterval(() => {
      if (window.FB) {
        window.clearInterval(timer);
        script?.removeEventListener("error", fail);
        resolve(window.FB);
      } else if (Date.now() - started >= SDK_WAIT_MS) {
        fail();
      }
    }, SDK_POLL_MS);
    // A blocked or unreachable script fails at once rather than after the whole wait.
    script?.addEventListener("error", fail);
  });
}

export interface BusinessLoginResult {
  code: string;
  /** From the Embedded Signup session event, when the popup sent one. */
  wabaId?: string;
  phoneNumberId?: string;
  /**
   * The number stays in the WhatsApp Business app (contract section 16): the popup finished
   * with `FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING`, or, when no finish event came, the app
   * onboarding was the flow asked for.
   */
  appOnboarding: boolean;
  /**
   * The signup finished without a number (`FINISH_ONLY_WABA`, or a Cloud API `FINISH` naming
   * none): v4 lets a business finish before adding or verifying its number. There is no number
   * to connect yet; the code still connects the pixel.
   */
  withoutNumber: boolean;
}

/** Embedded Signup's flow for a number that stays in the WhatsApp Business app. */
export const APP_ONBOARDING_FEATURE = "whatsapp_business_app_onboarding";
export const APP_ONBOARDING_EVENT = "FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING";
/** v4's finish without a phone number. */
export const ONLY_WABA_EVENT = "FINISH_ONLY_WABA";

/**
 * How long to wait, after the login answers with a code, for the popup's finish event: v4 may
 * post it after the callback. The code lives about 30 s, so the wait stays well inside it.
 */
export const SIGNUP_EVENT_GRACE_MS = 5_000;
/** Without a code: how long to wait for the CANCEL or ERROR that says why. */
const SIGNUP_CANCEL_GRACE_MS = 1_000;

/** Spanish for what is left to do when the signup finished without a usable number (decision 0074). */
export const SIGNUP_MESSAGES = {
  withoutNumberTitle: "WhatsApp aún no está conectado: falta el número",
  withoutNumber:
    "Meta creó o compartió tu cuenta de WhatsApp Business, pero el registro terminó sin un número de teléfono. Añade el número y verifícalo en el Administrador de WhatsApp de Meta (Números de teléfono) y después vuelve a pulsar «Conectar con Meta Business».",
  unverifiedTitle: "WhatsApp aún no está conectado: falta verificar el número",
  reportedErrorTitle: "Meta no pudo completar el registro de WhatsApp",
  /** `{code}` and `{session}`: what Meta's support asks for. */
  supportIds: "Si escribes al soporte de Meta, indica el código {code} y la sesión {session}.",
  cancelledAt:
    "Cerraste la ventana de Facebook en el paso «{step}». Puedes empezar de nuevo cuando quieras.",
  cancelledAtNumber:
    "Cerraste la ventana de Facebook en el paso «{step}». Si el código de verificación no llega, puedes añadir y verificar el número en el Administrador de WhatsApp de Meta y después volver a conectar.",
} as const;

/** The screens of Embedded Signup's CANCEL `current_step`, in Spanish (Meta's "Abandoned flow screens"). */
export const SIGNUP_STEPS: Record<string, string> = {
  BUSINESS_ACCOUNT_SELECTION: "elegir la cartera comercial",
  WABA_PHONE_PROFILE_PICKER: "elegir la cuenta de WhatsApp Business",
  WHATSAPP_BUSINESS_PROFILE_SETUP: "crear la cuenta de WhatsApp Business",
  PHONE_NUMBER_SETUP: "añadir el número de teléfono",
  PHONE_NUMBER_VERIFICATION: "verificar el número de teléfono",
  PERMISSIONS: "revisar los permisos",
};
const NUMBER_STEPS = new Set(["PHONE_NUMBER_SETUP", "PHONE_NUMBER_VERIFICATION"]);

/** A failed login with, when the popup said more, a Spanish description of what happened. */
export class SignupError extends Error {
  constructor(
    message: string,
    readonly description?: string,
  ) {
    super(message);
  }
}

/**
 * What `FB.login` is called with. Embedded Signup v4 (decision 0074): the version comes from
 * the login configuration (one created with its products selected), and `extras` carries only
 * the flow: empty for a new number, `featureType` for a number that stays in the WhatsApp
 * Business app. v2's `setup` and `sessionInfoVersion` are gone: v4 sends the session event for
 * every flow. Without a configuration id, the plain login asks the spec's scopes.
 */
export function signupOptions(
  configId: string | null,
  { appOnboarding = false }: { appOnboarding?: boolean } = {},
): FacebookLoginOptions {
  if (!configId)
    return { scope: FALLBACK_SCOPES, response_type: "code", override_default_response_type: true };
  return {
    config_id: configId,
    response_type: "code",
    override_default_response_type: true,
    extras: appOnboarding ? { featureType: APP_ONBOARDING_FEATURE } : {},
  };
}

/**
 * Facebook Login for Business. Must be called straight from the click handler (no
 * `await` before it) so the browser lets the popup open. Without a configuration id it
 * falls back to asking the spec's scopes with a code response. `appOnboarding` opens
 * Embedded Signup's flow for a number already used in the WhatsApp Business app ("Ya uso
 * este número en la app WhatsApp Business").
 *
 * The session event (ids, or why the popup closed) and the login's code come separately and in
 * either order: the listener is on before the popup opens, and whichever comes second waits
 * for the first (`SIGNUP_EVENT_GRACE_MS` after a code).
 */
export function loginForBusiness(
  configId: string | null,
  { appOnboarding = false }: { appOnboarding?: boolean } = {},
): Promise<BusinessLoginResult> {
  const fb = typeof window === "undefined" ? undefined : window.FB;
  if (!fb) return Promise.reject(new Error(SDK_MESSAGES.notLoaded));

  const signup = listenForEmbeddedSignup();
  const options = signupOptions(configId, { appOnboarding });
  // The plain login has no signup popup: nothing to wait for.
  const grace = configId ? SIGNUP_EVENT_GRACE_MS : 0;

  return new Promise<BusinessLoginResult>((resolve, reject) => {
    // The SDK refuses async callbacks: this one stays synchronous.
    const onResponse = (response: FacebookLoginResponse) => {
      const code = response.authResponse?.code;
      if (!code) {
        const connected = response.status === "connected";
        void signup
          .settle(configId ? SIGNUP_CANCEL_GRACE_MS : 0, (s) => s.cancelled || !!s.error)
          .then((session) => reject(failureOf(session, connected)));
        return;
      }
      void signup
        .settle(grace, (s) => s.finished)
        .then((session) => {
          const withoutNumber = session.finished && session.withoutNumber === true;
          resolve({
            code,
            ...(session.wabaId ? { wabaId: session.wabaId } : {}),
            ...(session.phoneNumberId && !withoutNumber
              ? { phoneNumberId: session.phoneNumberId }
              : {}),
            appOnboarding: session.finished ? session.appOnboarding === true : appOnboarding,
            withoutNumber,
          });
        });
    };
    try {
      fb.login(onResponse, options);
    } catch (error) {
      signup.stop();
      reject(error instanceof Error ? error : new Error(SDK_MESSAGES.notLoaded));
    }
  });
}

/** Why a login without a code failed, in Spanish, from what the popup said. */
function failureOf(session: SignupSession, connected: boolean): SignupError {
  if (session.error) {
    const { message, code, sessionId } = session.error;
    const ids =
      code || sessionId
        ? SIGNUP_MESSAGES.supportIds
            .replace("{code}", code ?? "—")
            .replace("{session}", sessionId ?? "—")
        : "";
    const description = [message ? `Meta dice: «${message}».` : "", ids].filter(Boolean).join(" ");
    return new SignupError(SIGNUP_MESSAGES.reportedErrorTitle, description || undefined);
  }
  if (session.cancelled || !connected) {
    const step = session.cancelStep ? SIGNUP_STEPS[session.cancelStep] : undefined;
    const description = step
      ? (NUMBER_STEPS.has(session.cancelStep!)
          ? SIGNUP_MESSAGES.cancelledAtNumber
          : SIGNUP_MESSAGES.cancelledAt
        ).replace("{step}", step)
      : undefined;
    return new SignupError(SDK_MESSAGES.cancelled, description);
  }
  return new SignupError(SDK_MESSAGES.noPermissions);
}

interface SignupSession {
  finished: boolean;
  cancelled: boolean;
  wabaId?: string;
  phoneNumberId?: string;
  /** The finish event was the WhatsApp Business app's onboarding. */
  appOnboarding?: boolean;
  /** The finish carried no number (`FINISH_ONLY_WABA`, or `FINISH` without one). */
  withoutNumber?: boolean;
  /** CANCEL's `current_step`: the screen the popup was closed on. */
  cancelStep?: string;
  /** A user-reported error (CANCEL with `error_message`) or an ERROR event. */
  error?: { message?: string; code?: string; sessionId?: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

const text = (value: unknown) =>
  typeof value === "string" && value.trim()
    ? value.trim()
    : typeof value === "number"
      ? String(value)
      : undefined;

/** Reads one `message` event of the Embedded Signup popup into the session (null if foreign). */
export function parseSignupMessage(origin: string, data: unknown): Partial<SignupSession> | null {
  if (!SIGNUP_ORIGINS.has(origin)) return null;
  let payload: unknown = data;
  if (typeof data === "string") {
    try {
      payload = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!isRecord(payload) || payload.type !== "WA_EMBEDDED_SIGNUP") return null;
  const event = typeof payload.event === "string" ? payload.event : "";
  const details = isRecord(payload.data) ? payload.data : {};
  const reported = () => {
    const message = text(details.error_message);
    const code = text(details.error_code) ?? text(details.error_id);
    const sessionId = text(details.session_id);
    return {
      ...(message ? { message } : {}),
      ...(code ? { code } : {}),
      ...(sessionId ? { sessionId } : {}),
    };
  };
  // FINISH and its kinds: FINISH_ONLY_WABA, FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING,
  // FINISH_OBO_MIGRATION, FINISH_GRANT_ONLY_API_ACCESS.
  if (event.startsWith("FINISH")) {
    const wabaId =
      text(details.waba_id) ??
      (Array.isArray(details.waba_ids) ? text(details.waba_ids[0]) : undefined);
    const phoneNumberId = text(details.phone_number_id);
    return {
      finished: true,
      appOnboarding: event === APP_ONBOARDING_EVENT,
      // A Cloud API finish names the number it added; without one, none was added. The other
      // kinds without a number leave the choice to the server (the account's number).
      withoutNumber: event === ONLY_WABA_EVENT || (event === "FINISH" && !phoneNumberId),
      ...(wabaId ? { wabaId } : {}),
      ...(phoneNumberId ? { phoneNumberId } : {}),
    };
  }
  if (event === "CANCEL") {
    // A user-reported error comes as CANCEL too, told apart by its data.
    const error = reported();
    if (error.message || error.code) return { error };
    const step = text(details.current_step);
    return { cancelled: true, ...(step ? { cancelStep: step.replace(/^<|>$/g, "") } : {}) };
  }
  if (event === "ERROR") return { error: reported() };
  return null;
}

function listenForEmbeddedSignup() {
  let session: SignupSession = { finished: false, cancelled: false };
  let onUpdate: (() => void) | null = null;

  const listener = (event: MessageEvent) => {
    const update = parseSignupMessage(event.origin, event.data);
    if (!update) return;
    session = { ...session, ...update };
    onUpdate?.();
  };
  window.addEventListener("message", listener);
  const stop = () => window.removeEventListener("message", listener);

  return {
    stop,
    /**
     * The session once `ready` holds (at once if it already does), or as it stands after
     * `graceMs`; the listener stops either way.
     */
    settle(graceMs: number, ready: (s: SignupSession) => boolean): Promise<SignupSession> {
      return new Promise((resolve) => {
        const done = () => {
          window.clearTimeout(timer);
          onUpdate = null;
          stop();
          resolve(session);
        };
        const timer = window.setTimeout(done, ready(session) ? 0 : graceMs);
        onUpdate = () => {
          if (ready(session)) done();
        };
      });
    },
  };
}
