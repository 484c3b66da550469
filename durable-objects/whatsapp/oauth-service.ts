/**
 * Connecting a number with Facebook Login (Embedded Signup). The console sends the same
 * short-lived code to this exchange and to the pixel connect; the code is exchanged once
 * per organization and both use the resulting token (table `oauth_exchanges`).
 */
import { and, eq } from "drizzle-orm";
import { oauthExchanges, whatsappConnections } from "../../worker/db/global-schema";
import type { Env } from "../../worker/env";
import type { Member } from "../../worker/http/context";
import { recordAudit } from "../audit/service";
import type { Deps, StoreDeps } from "../../worker/http/deps";
import { sha256Hex } from "../../worker/auth/tokens";
import { signOAuthState } from "../../worker/auth/oauth-state";
import { whatsappCallbackUrl } from "../../worker/http/callback-urls";
import { AppError } from "../../worker/http/errors";
import { findConnection } from "./connection-service";
import type { HistoryImport } from "../../contracts/whatsapp";
import { historyImportOf, recordHistoryRequest } from "./history-import";
import { metaGraph } from "../meta/graph";
import { GraphError } from "../meta/errors";
import { registerAfterConnecting } from "../flows/registration";
import { decryptSecret, encryptSecret } from "../meta/secrets";

type ConnectionRow = typeof whatsappConnections.$inferSelect;

/** The connection error codes of the spec's /oauth-error page. */
export type ConnectionErrorCode =
  | "no_code"
  | "token_exchange_failed"
  | "no_permissions"
  | "no_phone_number"
  | "number_not_verified"
  | "save_failed"
  | "invalid_state"
  | "meta_not_configured";

const MESSAGES: Record<ConnectionErrorCode, string> = {
  no_code: "Meta no devolvió un código de autorización.",
  token_exchange_failed:
    "No se pudo canjear el código de Meta. Vuelve a intentarlo: el código caduca en segundos.",
  no_permissions: "No se concedieron los permisos de WhatsApp Business necesarios.",
  no_phone_number:
    "La cuenta de WhatsApp Business no tiene ese número, o ninguno. Añade el número y verifícalo en el Administrador de WhatsApp de Meta (Números de teléfono) y después vuelve a conectar con Meta Business.",
  number_not_verified:
    "El número de WhatsApp aún no está verificado. Verifícalo en el Administrador de WhatsApp de Meta (Números de teléfono) con el código que Meta envía por SMS o llamada y después vuelve a pulsar «Conectar con Meta Business».",
  save_failed: "No se pudo guardar la conexión. Inténtalo de nuevo.",
  invalid_state: "La solicitud de conexión no es válida o ha caducado.",
  meta_not_configured: "Falta configurar META_APP_ID y META_APP_SECRET en el servidor.",
};

/** The connection's failure in Spanish, with a Spanish `detail` of ours when there is one. */
export const connectionError = (code: ConnectionErrorCode, detail?: string) =>
  new AppError(
    code === "meta_not_configured" ? 503 : 400,
    code,
    MESSAGES[code],
    detail ? [{ path: "meta", message: detail }] : undefined,
  );

/** Meta's refusal as `code`: its own words (ids, internals, English) go to the log only. */
function metaRefusal(code: ConnectionErrorCode, error: unknown) {
  console.warn(
    "meta connection",
    code,
    error instanceof GraphError ? error.providerMessage : error,
  );
  return connectionError(code);
}

const WAIT_FOR_SHARED_EXCHANGE_MS = 15_000;

function metaApp(env: Env) {
  if (!env.META_APP_ID || !env.META_APP_SECRET) throw connectionError("meta_not_configured");
  return { appId: env.META_APP_ID, appSecret: env.META_APP_SECRET };
}

/** The business token for this code, exchanging it with Meta only the first time. */
export async function tokenForCode(
  deps: Deps,
  organizationId: string,
  code: string,
  redirectUri?: string,
) {
  const { db, env } = deps;
  const { appId, appSecret } = metaApp(env);
  const codeHash = await sha256Hex(code);
  const key = and(
    eq(oauthExchanges.organizationId, organizationId),
    eq(oauthExchanges.codeHash, codeHash),
  );
  const claimed = await db
    .insert(oauthExchanges)
    .values({ organizationId, codeHash })
    .onConflictDoNothing()
    .returning();

  if (claimed.length === 0) {
    // The twin call holds the exchange: wait for its result.
    const until = Date.now() + WAIT_FOR_SHARED_EXCHANGE_MS;
    while (Date.now() < until) {
      const row = await db.query.oauthExchanges.findFirst({ where: key });
      if (row?.accessTokenEncrypted)
        return decryptSecret(row.accessTokenEncrypted, env.ENCRYPTION_KEY);
      if (row?.error) throw connectionError("token_exchange_failed");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw connectionError("token_exchange_failed");
  }

  try {
    const { access_token } = await metaGraph(env).exchangeCode(appId, appSecret, code, redirectUri);
    await db
      .update(oauthExchanges)
      .set({ accessTokenEncrypted: await encryptSecret(access_token, env.ENCRYPTION_KEY) })
      .where(key);
    return access_token;
  } catch (error) {
    const detail = error instanceof GraphError ? error.providerMessage : String(error);
    await db.update(oauthExchanges).set({ error: detail }).where(key);
    throw metaRefusal("token_exchange_failed", error);
  }
}

export interface ExchangeInput {
  code: string;
  waba_id?: string;
  phone_number_id?: string;
  redirect_uri?: string;
  /** The number stays in the WhatsApp Business app (contract section 16): never registered. */
  coexistence?: boolean;
}

/** What the exchange answers: the number, and for one shared with the app its history import. */
export interface ExchangeResult {
  phone_number: string;
  history_import?: HistoryImport;
  /** What Meta refused of the app's data (address book, history), in Spanish; else null. */
  sync_error?: string | null;
}

function randomPin() {
  const n = crypto.getRandomValues(new Uint32Array(1))[0]! % 1_000_000;
  return n.toString().padStart(6, "0");
}

/**
 * Exchange → account from the token's scopes → number → subscribe → register → stored. A number
 * shared with the WhatsApp Business app is never registered; once stored, its address book and
 * history are asked of Meta (`requestAppData`).
 */
export async function connectWithCode(
  deps: StoreDeps,
  member: Member,
  input: ExchangeInput,
): Promise<ExchangeResult> {
  const { db, env } = deps;
  const { appId, appSecret } = metaApp(env);
  const token = await tokenForCode(deps, member.organizationId, input.code, input.redirect_uri);
  const graph = metaGraph(env, token);

  let wabaIds: string[];
  try {
    const debug = await metaGraph(env).debugToken(token, `${appId}|${appSecret}`);
    wabaIds =
      debug.data.granular_scopes?.find((s) => s.scope === "whatsapp_business_management")
        ?.target_ids ?? [];
  } catch (error) {
    throw metaRefusal("no_permissions", error);
  }
  const wabaId = input.waba_id ?? wabaIds[0];
  if (!wabaId || !wabaIds.includes(wabaId)) throw connectionError("no_permissions");

  let number:
    { id: string; display_phone_number: string; code_verification_status?: string } | undefined;
  try {
    const numbers = await graph.listPhoneNumbers(wabaId);
    number = input.phone_number_id
      ? numbers.data.find((n) => n.id === input.phone_number_id)
      : numbers.data[0];
  } catch (error) {
    throw metaRefusal("no_permissions", error);
  }
  if (!number) throw connectionError("no_phone_number");

  const pin = randomPin();
  const coexistence = input.coexistence === true;
  // Embedded Signup v4 lets a business finish with a number it has not verified (decision
  // 0074): Meta would refuse its registration and it could not send. Nothing is stored; the
  // answer says what is left to do. A number shared with the app was verified on the phone.
  const verification = number.code_verification_status;
  if (!coexistence && verification && verification !== "VERIFIED") {
    console.warn("meta connection", "number_not_verified", number.id, verification);
    throw connectionError("number_not_verified");
  }
  try {
    await graph.subscribeApp(wabaId);
    if (!coexistence) await graph.registerNumber(number.id, pin);
  } catch (error) {
    // A number registered earlier (with its own PIN) refuses a new registration; it still works.
    console.warn("subscribe/register", error instanceof GraphError ? error.providerMessage : error);
  }

  const taken = await db.query.whatsappConnections.findFirst({
    where: eq(whatsappConnections.phoneNumberId, number.id),
  });
  if (taken && taken.organizationId !== member.organizationId) {
    throw connectionError("save_failed", "Este número ya está conectado a otra organización.");
  }
  let saved: ConnectionRow | undefined;
  try {
    const current = await findConnection(db, member.organizationId);
    const now = new Date().toISOString();
    const values = {
      organizationId: member.organizationId,
      phoneNumberId: number.id,
      businessAccountId: wabaId,
      phoneNumber: number.display_phone_number,
      accessTokenEncrypted: await encryptSecret(token, env.ENCRYPTION_KEY),
      // A number shared with the app has no PIN of ours: it was never registered.
      pinEncrypted: coexistence ? null : await encryptSecret(pin, env.ENCRYPTION_KEY),
      status: "connected" as const,
      defaultAgentId: current?.defaultAgentId ?? null,
      connectedAt: now,
      updatedAt: now,
      ...(coexistence && {
        coexistence: true,
        disconnectedReason: null,
        // Meta's ids are kept for the same number only: another number is asked afresh.
        ...(current?.phoneNumberId !== number.id && {
          contactsRequestId: null,
          historyRequestId: null,
        }),
      }),
    };
    [saved] = await db
      .insert(whatsappConnections)
      .values(values)
      .onConflictDoUpdate({ target: whatsappConnections.organizationId, set: values })
      .returning();
  } catch (error) {
    // The database's own words stay in the log: the console gets the spec's message.
    console.error("saving the WhatsApp connection failed", error);
    throw connectionError("save_failed");
  } finally {
    await deps.factsChanged();
  }
  await recordAudit(deps.orgDb, {
    organizationId: member.organizationId,
    action: "whatsapp.connect",
    userId: member.userId,
    target: number.id,
    metadata: { via: "facebook_login", waba_id: wabaId, ...(coexistence && { coexistence }) },
    ip: member.ip,
  });
  await registerAfterConnecting(deps, member.organizationId, {
    phoneNumberId: number.id,
    wabaId,
    graph,
  });
  if (!coexistence) return { phone_number: number.display_phone_number };
  return { phone_number: number.display_phone_number, ...(await requestAppData(deps, saved!)) };
}

/** Each of the app's data Meta sends once asked: the connection's column for its request id. */
const APP_DATA = [
  {
    syncType: "smb_app_state_sync",
    column: "contactsRequestId",
    refused: "Meta no aceptó la petición de la agenda del móvil",
  },
  {
    syncType: "history",
    column: "historyRequestId",
    refused: "Meta no aceptó la petición del historial de chats",
  },
] as const;

/**
 * Asks Meta for the app's address book, then its history (contract section 16), each once per
 * connection of the number: Meta allows each once, so a request whose id is kept is not made
 * again; one Meta refused is tried again when the number is connected again. A refusal does not
 * undo the connection: it is said in Spanish, in the history import and in the answer.
 */
async function requestAppData(deps: StoreDeps, connection: ConnectionRow) {
  const token = await decryptSecret(connection.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  const graph = metaGraph(deps.env, token);
  const refusals: string[] = [];
  let historyRequested = connection.historyRequestId !== null;
  for (const { syncType, column, refused } of APP_DATA) {
    if (connection[column] !== null) continue;
    try {
      const { request_id } = await graph.requestAppData(connection.phoneNumberId, syncType);
      await deps.db
        .update(whatsappConnections)
        .set({ [column]: request_id ?? "requested", updatedAt: new Date().toISOString() })
        .where(eq(whatsappConnections.id, connection.id));
      await deps.factsChanged();
      if (syncType === "history") historyRequested = true;
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      console.warn("smb_app_data", syncType, error.providerMessage);
      refusals.push(`${refused}: ${error.message}`);
    }
  }
  const syncError = refusals.length > 0 ? refusals.join(" ") : null;
  if (connection.historyRequestId !== null && connection.contactsRequestId !== null) {
    // Asked before: the import stands where it is.
    const current = await historyImportOf(deps.orgDb, connection.organizationId);
    if (current) return { history_import: current, sync_error: null };
  }
  const historyImport = await recordHistoryRequest(deps, connection.organizationId, {
    requested: historyRequested,
    error: syncError,
  });
  return { history_import: historyImport, sync_error: syncError };
}

// ── Redirect flow ─────────────────────────────────────────────────────────

/** How long Facebook Login's state is taken back. */
const STATE_MS = 10 * 60_000;

/** The Graph API version, read from META_GRAPH_URL so it is set in one place. */
export function graphVersion(env: Env) {
  return /\/(v\d+\.\d+)\/?$/.exec(env.META_GRAPH_URL)?.[1] ?? "v25.0";
}

/**
 * The Facebook Login dialog URL, with a state bound to the member, their session and the
 * browser that asked for it (worker/auth/oauth-state.ts).
 */
export async function authUrl({ env }: Deps, member: Member) {
  const { appId } = metaApp(env);
  const { state, nonce } = await signOAuthState(env, "oauth-state", member, {
    lifetimeMs: STATE_MS,
  });
  const url = new URL(`https://www.facebook.com/${graphVersion(env)}/dialog/oauth`);
  url.searchParams.set("client_id", appId);
  url.searchParams.set("redirect_uri", whatsappCallbackUrl(env));
  url.searchParams.set("state", state);
  url.searchParams.set("response_type", "code");
  if (env.META_CONFIG_ID) {
    url.searchParams.set("config_id", env.META_CONFIG_ID);
    url.searchParams.set("override_default_response_type", "true");
  }
  return { url: url.toString(), state, nonce };
}

export async function oauthStatus({ db }: Deps, member: Member) {
  const row = await findConnection(db, member.organizationId);
  return {
    connected: row?.status === "connected",
    status: row?.status ?? "disconnected",
    phone_number: row?.phoneNumber ?? null,
  };
}
