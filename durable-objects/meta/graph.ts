/**
 * The one client of Meta's Graph API. Its base (with the API version) is META_GRAPH_URL;
 * tests and the sandbox point it at the local fake. Nothing else knows Graph's wire format.
 */
import { GraphError, metaErrorText } from "./errors";

const TIMEOUT_MS = 15_000;

type Query = Record<string, string | undefined>;

/** How WhatsApp reaches a customer: the phone when they share it, else their BSUID. */
export interface CustomerAddress {
  phoneNumber: string | null;
  waUserId: string | null;
}

/** Meta could not be reached or did not answer in time: a GraphError the console can show. */
function unreachable(error: unknown, timeoutMs: number) {
  const timedOut = error instanceof DOMException && error.name === "TimeoutError";
  return new GraphError(
    timedOut
      ? `Meta no respondió a tiempo (${Math.round(timeoutMs / 1000)} s). Inténtalo de nuevo.`
      : "No se pudo conectar con Meta. Inténtalo de nuevo.",
    0,
    null,
    null,
    error instanceof Error ? error.message : String(error),
  );
}

/** Graph as these settings reach it, acting with `accessToken` (none for the app's own calls). */
export const metaGraph = (env: { META_GRAPH_URL: string }, accessToken?: string) =>
  new GraphClient(env.META_GRAPH_URL, accessToken);

/**
 * Where and how a message is sent: through `/messages` (the default) or the Marketing
 * Messages API (`/marketing_messages`, marketing templates only), with the reference Meta
 * repeats on its statuses (`biz_opaque_callback_data`, at most 512 characters).
 */
export interface SendVia {
  endpoint?: "messages" | "marketing_messages";
  callbackData?: string;
}

export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly accessToken?: string,
    /** How long Meta may take to answer (tests shorten it). */
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  async request<T>(
    method: "GET" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    query?: Query,
    extraHeaders: Record<string, string> = {},
  ) {
    const url = new URL(`${this.baseUrl.replace(/\/$/, "")}/${path.replace(/^\//, "")}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    const headers: Record<string, string> = { Accept: "application/json", ...extraHeaders };
    if (this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    const multipart = body instanceof FormData;
    if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";

    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined || multipart ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw unreachable(error, this.timeoutMs);
    }
    const payload = (await response.json().catch(() => null)) as
      (T & { error?: { message?: string; code?: number; error_subcode?: number } }) | null;
    if (!response.ok || !payload || payload.error) {
      const error = payload?.error;
      const code = error?.code ?? null;
      const providerMessage = error?.message ?? `HTTP ${response.status}`;
      throw new GraphError(
        metaErrorText(code, providerMessage),
        response.status,
        code,
        error?.error_subcode ?? null,
        providerMessage,
      );
    }
    return payload as T;
  }

  /**
   * A message of any type: text, template, image, document, audio, video, reaction. A
   * customer with a phone gets it by `to`; one who withholds it, by BSUID in `recipient`.
   */
  sendMessage(
    phoneNumberId: string,
    to: CustomerAddress,
    type: string,
    part: Record<string, unknown>,
    via: SendVia = {},
  ) {
    return this.request<{ messages: { id: string }[] }>(
      "POST",
      `${phoneNumberId}/${via.endpoint ?? "messages"}`,
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        ...(to.phoneNumber ? { to: to.phoneNumber } : { recipient: to.waUserId }),
        type,
        [type]: part,
        ...(via.callbackData && { biz_opaque_callback_data: via.callbackData }),
      },
    );
  }

  /**
   * The business portfolio's messaging limit (unique customers reached outside the service
   * window in a moving 24 h), as the number reports it since October 2025.
   */
  messagingLimit(phoneNumberId: string) {
    return this.request<{ whatsapp_business_manager_messaging_limit?: string }>(
      "GET",
      phoneNumberId,
      undefined,
      { fields: "whatsapp_business_manager_messaging_limit" },
    );
  }

  /**
   * The daily cost per pricing category, type and country over [start, end) (unix seconds;
   * at most 90 days) of one number of the WhatsApp Business Account, named as Meta normalizes
   * it (digits only): a WABA may hold numbers of other organizations.
   */
  pricingAnalytics(wabaId: string, phoneNumber: string, start: number, end: number) {
    const dimensions = JSON.stringify(["PRICING_CATEGORY", "PRICING_TYPE", "COUNTRY"]);
    const phoneNumbers = JSON.stringify([phoneNumber]);
    return this.request<{
      pricing_analytics?: {
        data?: {
          data_points?: {
            start?: number;
            pricing_category?: string;
            pricing_type?: string;
            country?: string;
            volume?: number;
            cost?: number;
          }[];
        }[];
      };
    }>("GET", wabaId, undefined, {
      fields: `pricing_analytics.start(${start}).end(${end}).granularity(DAILY).phone_numbers(${phoneNumbers}).dimensions(${dimensions})`,
    });
  }

  /**
   * Gives a customer's thread back to Meta's own AI (Meta Business Agent): Meta's Business API
   * at `businessApiUrl` (META_BUSINESS_API_URL), with this client's token and Graph's errors.
   */
  releaseThread(businessApiUrl: string, phoneNumberId: string, to: CustomerAddress) {
    const business = new GraphClient(businessApiUrl, this.accessToken, this.timeoutMs);
    return business.request<{ success?: boolean }>(
      "POST",
      `phone_numbers/${phoneNumberId}/thread_control`,
      {
        messaging_product: "whatsapp",
        action: "release",
        ...(to.phoneNumber ? { to: to.phoneNumber } : { recipient: to.waUserId }),
      },
      undefined,
      { "X-API-Version": "1.0.0" },
    );
  }

  listTemplates(wabaId: string) {
    return this.request<{
      data: {
        id: string;
        name: string;
        language: string;
        category: string;
        status: string;
        components: { type: string; format?: string; text?: string }[];
      }[];
      paging?: { next?: string };
    }>("GET", `${wabaId}/message_templates`, undefined, {
      fields: "id,name,language,category,status,components",
      limit: "250",
    });
  }

  /** Where to download a media file (the URL needs this client's token and lives ~5 minutes). */
  getMedia(mediaId: string) {
    return this.request<{ url: string; mime_type?: string; file_size?: number }>("GET", mediaId);
  }

  /** The media file itself, as a stream to pass on. */
  async downloadMedia(url: string) {
    const response = await fetch(url, {
      headers: this.accessToken ? { Authorization: `Bearer ${this.accessToken}` } : {},
      signal: AbortSignal.timeout(this.timeoutMs),
    }).catch((error: unknown) => {
      throw new GraphError(
        "No se pudo descargar el archivo de WhatsApp.",
        0,
        null,
        null,
        error instanceof Error ? error.message : String(error),
      );
    });
    if (!response.ok || !response.body) {
      throw new GraphError(
        "No se pudo descargar el archivo de WhatsApp.",
        response.status,
        null,
        null,
        `HTTP ${response.status}`,
      );
    }
    return response;
  }

  /** Uploads a file for sending; answers Meta's media id. */
  uploadMedia(phoneNumberId: string, file: Blob, fileName: string) {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", file.type);
    form.set("file", file, fileName);
    return this.request<{ id: string }>("POST", `${phoneNumberId}/media`, form);
  }

  /** Marks a customer's message read (blue ticks); optionally shows the typing indicator. */
  markRead(phoneNumberId: string, messageId: string, typing = false) {
    return this.request<{ success: boolean }>("POST", `${phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      status: "read",
      message_id: messageId,
      ...(typing && { typing_indicator: { type: "text" } }),
    });
  }

  getPhoneNumber(phoneNumberId: string) {
    return this.request<{
      id: string;
      display_phone_number: string;
      verified_name?: string;
      quality_rating?: string;
    }>("GET", phoneNumberId, undefined, {
      fields: "id,display_phone_number,verified_name,quality_rating",
    });
  }

  /** The Facebook Login code → a business token (the code lives ~30 s and works once). */
  exchangeCode(appId: string, appSecret: string, code: string, redirectUri?: string) {
    return this.request<{ access_token: string }>("GET", "oauth/access_token", undefined, {
      client_id: appId,
      client_secret: appSecret,
      code,
      redirect_uri: redirectUri,
    });
  }

  /** What a token may reach: the WhatsApp Business Accounts are in `granular_scopes`. */
  debugToken(inputToken: string, appAccessToken: string) {
    return this.request<{
      data: { is_valid?: boolean; granular_scopes?: { scope: string; target_ids?: string[] }[] };
    }>("GET", "debug_token", undefined, { input_token: inputToken, access_token: appAccessToken });
  }

  /**
   * The account's numbers. `code_verification_status` (`VERIFIED`, `NOT_VERIFIED`, `EXPIRED`)
   * tells a number Embedded Signup v4 left unverified (decision 0074).
   */
  listPhoneNumbers(wabaId: string) {
    return this.request<{
      data: {
        id: string;
        display_phone_number: string;
        verified_name?: string;
        code_verification_status?: string;
      }[];
    }>("GET", `${wabaId}/phone_numbers`, undefined, {
      fields: "id,display_phone_number,verified_name,code_verification_status",
    });
  }

  subscribeApp(wabaId: string) {
    return this.request<{ success: boolean }>("POST", `${wabaId}/subscribed_apps`);
  }

  registerNumber(phoneNumberId: string, pin: string) {
    return this.request<{ success: boolean }>("POST", `${phoneNumberId}/register`, {
      messaging_product: "whatsapp",
      pin,
    });
  }

  /**
   * Asks Meta for what the WhatsApp Business app holds of a number shared with it (contract
   * section 16): its address book (`smb_app_state_sync`) or its chat history (`history`), which
   * then arrive as webhooks. Meta allows each once, within 24 h of onboarding.
   */
  requestAppData(phoneNumberId: string, syncType: "smb_app_state_sync" | "history") {
    return this.request<{ request_id?: string }>("POST", `${phoneNumberId}/smb_app_data`, {
      messaging_product: "whatsapp",
      sync_type: syncType,
    });
  }

  getPixel(pixelId: string) {
    return this.request<{ id: string; name?: string; last_fired_time?: string }>(
      "GET",
      pixelId,
      undefined,
      {
        fields: "id,name,last_fired_time,is_unavailable",
      },
    );
  }

  getPixelStats(pixelId: string) {
    return this.request<{ data: unknown[] }>("GET", `${pixelId}/stats`);
  }

  listAdAccounts() {
    return this.request<{ data: { id: string; account_id?: string; name?: string }[] }>(
      "GET",
      "me/adaccounts",
      undefined,
      { fields: "id,account_id,name" },
    );
  }

  listPixels(adAccountId: string) {
    return this.request<{ data: { id: string; name?: string }[] }>(
      "GET",
      `${adAccountId}/adspixels`,
      undefined,
      {
        fields: "id,name",
      },
    );
  }

  /** The WhatsApp Business Account's Conversions API dataset: created on first call, then returned. */
  waDataset(wabaId: string) {
    return this.request<{ id: string }>("POST", `${wabaId}/dataset`);
  }

  /** Conversions API: one request of at most 1,000 events to a pixel or dataset. */
  sendEvents(datasetId: string, events: unknown[], testEventCode?: string | null) {
    return this.request<{ events_received: number; fbtrace_id?: string; messages?: unknown[] }>(
      "POST",
      `${datasetId}/events`,
      { data: events, ...(testEventCode && { test_event_code: testEventCode }) },
    );
  }

  /** WhatsApp Flows: the business's public key (PEM) on a number, to encrypt Flow requests. */
  setFlowsPublicKey(phoneNumberId: string, publicKeyPem: string) {
    return this.request<{ success: boolean }>(
      "POST",
      `${phoneNumberId}/whatsapp_business_encryption`,
      { business_public_key: publicKeyPem },
    );
  }

  /** A Flow (a draft) on the WhatsApp Business Account, served by `endpointUri`. */
  createFlow(wabaId: string, flow: { name: string; categories: string[]; endpointUri: string }) {
    return this.request<{ id: string }>("POST", `${wabaId}/flows`, {
      name: flow.name,
      categories: flow.categories,
      endpoint_uri: flow.endpointUri,
    });
  }

  /** A draft Flow's Flow JSON, uploaded as its `flow.json` asset. */
  uploadFlowJson(flowId: string, flowJson: unknown) {
    const form = new FormData();
    form.set("name", "flow.json");
    form.set("asset_type", "FLOW_JSON");
    form.set(
      "file",
      new Blob([JSON.stringify(flowJson)], { type: "application/json" }),
      "flow.json",
    );
    return this.request<{ success: boolean; validation_errors?: unknown[] }>(
      "POST",
      `${flowId}/assets`,
      form,
    );
  }

  publishFlow(flowId: string) {
    return this.request<{ success: boolean }>("POST", `${flowId}/publish`);
  }

  getBusinessProfile(phoneNumberId: string) {
    return this.request<{ data: Record<string, unknown>[] }>(
      "GET",
      `${phoneNumberId}/whatsapp_business_profile`,
      undefined,
      { fields: "about,address,description,email,profile_picture_url,websites,vertical" },
    );
  }
}
