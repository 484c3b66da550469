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
/** How long to wait, after the login answers, for the signup popup's FINISH event. */
const SIGNUP_EVENT_GRACE_MS = 1_000;
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
  extras?: {
    setup: Record<string, never>;
    featureType: string;
    sessionInfoVersion: string;
  };
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
  /** From the Embedded Signup FINISH event, when the popup sent one. */
  wabaId?: string;
  phoneNumberId?: string;
  /**
   * The number stays in the WhatsApp Business app (contract section 16): the popup finished
   * with `FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING`, or, when no FINISH event came, the app
   * onboarding was the flow asked for.
   */
  appOnboarding: boolean;
}

/** Embedded Signup's flow for a number that stays in the WhatsApp Business app. */
export const APP_ONBOARDING_FEATURE = "whatsapp_business_app_onboarding";
export const APP_ONBOARDING_EVENT = "FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING";

/**
 * Facebook Login for Business. Must be called straight from the click handler (no
 * `await` before it) so the browser lets the popup open. Without a configuration id it
 * falls back to asking the spec's scopes with a code response. `appOnboarding` opens
 * Embedded Signup's flow for a number already used in the WhatsApp Business app ("Ya uso
 * este número en la app WhatsApp Business").
 */
export function loginForBusiness(
  configId: string | null,
  { appOnboarding = false }: { appOnboarding?: boolean } = {},
): Promise<BusinessLoginResult> {
  const fb = typeof window === "undefined" ? undefined : window.FB;
  if (!fb) return Promise.reject(new Error(SDK_MESSAGES.notLoaded));

  const signup = listenForEmbeddedSignup();
  const featureType = appOnboarding ? APP_ONBOARDING_FEATURE : "";
  const options: FacebookLoginOptions = configId
    ? {
        config_id: configId,
        response_type: "code",
        override_default_response_type: true,
        extras: { setup: {}, featureType, sessionInfoVersion: "3" },
      }
    : { scope: FALLBACK_SCOPES, response_type: "code", override_default_response_type: true };

  return new Promise<BusinessLoginResult>((resolve, reject) => {
    // The SDK refuses async callbacks: this one stays synchronous.
    const onResponse = (response: FacebookLoginResponse) => {
      const code = response.authResponse?.code;
      if (!code) {
        const session = signup.current();
        signup.stop();
        if (session.error) reject(new Error(session.error));
        else if (session.cancelled || response.status !== "connected")
          reject(new Error(SDK_MESSAGES.cancelled));
        else reject(new Error(SDK_MESSAGES.noPermissions));
        return;
      }
      void signup.settle(SIGNUP_EVENT_GRACE_MS).then((session) =>
        resolve({
          code,
          ...(session.wabaId ? { wabaId: session.wabaId } : {}),
          ...(session.phoneNumberId ? { phoneNumberId: session.phoneNumberId } : {}),
          appOnboarding: session.finished ? session.appOnboarding === true : appOnboarding,
        }),
      );
    };
    try {
      fb.login(onResponse, options);
    } catch (error) {
      signup.stop();
      reject(error instanceof Error ? error : new Error(SDK_MESSAGES.notLoaded));
    }
  });
}

interface SignupSession {
  finished: boolean;
  cancelled: boolean;
  wabaId?: string;
  phoneNumberId?: string;
  /** The FINISH event was the WhatsApp Business app's onboarding. */
  appOnboarding?: boolean;
  error?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

const text = (value: unknown) =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;

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
  // FINISH, and its variants FINISH_ONLY_WABA / FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING.
  if (event.startsWith("FINISH")) {
    const wabaId = text(details.waba_id);
    const phoneNumberId = text(details.phone_number_id);
    return {
      finished: true,
      appOnboarding: event === APP_ONBOARDING_EVENT,
      ...(wabaId ? { wabaId } : {}),
      ...(phoneNumberId ? { phoneNumberId } : {}),
    };
  }
  if (event === "CANCEL") return { cancelled: true };
  if (event === "ERROR") {
    const error = text(details.error_message);
    return error ? { error } : null;
  }
  return null;
}

function listenForEmbeddedSignup() {
  let session: SignupSession = { finished: false, cancelled: false };
  let onFinish: (() => void) | null = null;

  const listener = (event: MessageEvent) => {
    const update = parseSignupMessage(event.origin, event.data);
    if (!update) return;
    session = { ...session, ...update };
    if (session.finished) onFinish?.();
  };
  window.addEventListener("message", listener);
  const stop = () => window.removeEventListener("message", listener);

  return {
    current: () => session,
    stop,
    /** The session once FINISH arrives, or as it stands after `graceMs`. */
    settle(graceMs: number): Promise<SignupSession> {
      return new Promise((resolve) => {
        const done = () => {
          window.clearTimeout(timer);
          onFinish = null;
          stop();
          resolve(session);
        };
        const timer = window.setTimeout(done, session.finished ? 0 : graceMs);
        onFinish = done;
      });
    },
  };
}
