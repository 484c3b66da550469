export const GRAPH_VERSION: string;
/** Approved templates the fake sends but does not list (a booking reminder's). */
export const UNLISTED_TEMPLATES: {
  name: string;
  language: string;
  status: string;
  category: string;
  id: string;
  components: { type: string; text?: string; buttons?: { type: string; text: string }[] }[];
}[];
export const GRAPH_FIXTURES: {
  appId: string;
  wabaId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  validCode: string;
  businessToken: string;
  adAccountId: string;
  pixelId: string;
  pixelName: string;
  datasetId: string;
  appWabaId: string;
  appPhoneNumberId: string;
  appDisplayPhoneNumber: string;
  foreignWabaId: string;
  foreignPhoneNumberId: string;
  pendingWabaId: string;
  pendingPhoneNumberId: string;
  pendingDisplayPhoneNumber: string;
  emptyWabaId: string;
};
export function startFakeGraph(options?: {
  port?: number;
  appSecret?: string;
  webhookUrl?: string;
  autoStatuses?: boolean;
  /**
   * Answer a number's `smb_app_data` requests as Meta does afterwards: the phone's contacts and
   * the history of two chats in chunks out of order, as signed webhooks (sandbox, browser tests).
   */
  playAppData?: boolean;
  statusDelayMs?: number;
  /** Accounts whose template list includes the reminder's (`UNLISTED_TEMPLATES`). */
  fullLists?: string[];
  /** The ad account's spend the fake starts with: one row per ad and day. */
  adInsights?: { ad_id: string; ad_name: string; date: string; spend: number }[];
  /**
   * The WABA's billed messages per day for pricing analytics (`type` defaults to regular;
   * `phone`, digits only, to the fixtures' number).
   */
  pricing?: {
    date: string;
    phone?: string;
    category: string;
    type?: string;
    country: string;
    volume: number;
    cost: number;
  }[];
}): Promise<{
  port: number;
  url: string;
  /** Meta's Business API (thread control) on the same fake. */
  businessUrl: string;
  requests: unknown[];
  sendWebhook(payload: unknown): Promise<number>;
  close(): Promise<void>;
}>;
/** Has a running fake hold a customer's file (`POST /__fake/media`); answers its media id. */
export function holdFakeMedia(
  origin: string,
  file: { text?: string; base64?: string; mime_type: string; file_size?: number },
): Promise<string>;
