export interface Change {
  wabaId: string;
  field: string;
  value: Record<string, unknown>;
}
export function wamid(): string;
export function delivery(...changes: Change[]): Record<string, unknown>;
export function inboundMessage(options: {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  wabaId?: string;
  /** The customer's phone; absent for a customer with a username who withholds it. */
  from?: string;
  name?: string;
  /** The customer's business-scoped user id (BSUID). */
  userId?: string;
  username?: string;
  id?: string;
  timestamp?: string;
  type?: string;
  text?: string;
  part?: Record<string, unknown> | Record<string, unknown>[];
  referral?: Record<string, unknown>;
  context?: Record<string, unknown>;
}): Change;
export function burst(...changes: Change[]): Change;
export function statusUpdate(options: {
  phoneNumberId: string;
  wabaId?: string;
  id: string;
  recipientId?: string;
  recipientUserId?: string;
  status: string;
  timestamp?: string;
  errors?: Record<string, unknown>[];
  /** Meta's `pricing` (a billable service message by default; null leaves it out). */
  pricing?: Record<string, unknown> | null;
  /** The send's `biz_opaque_callback_data`, which Meta repeats on its statuses. */
  callbackData?: string;
}): Change;
export function ctwaReferral(options?: {
  adId?: string;
  headline?: string;
  ctwaClid?: string | null;
}): Record<string, unknown>;
export function signPayload(rawBody: string, appSecret: string): Promise<string>;

type InboundOptions = Parameters<typeof inboundMessage>[0];
export function messageEcho(options: {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  wabaId?: string;
  /** `smb_message_echoes` (the owner, from the app) or `standby` (Meta's AI). */
  field?: "smb_message_echoes" | "standby";
  to?: string;
  toUserId?: string;
  id?: string;
  timestamp?: string;
  type?: string;
  text?: string;
  part?: Record<string, unknown>;
}): Change;
export function standbyMessage(options: InboundOptions): Change;
export function editedMessage(
  options: InboundOptions & { originalId: string; text?: string },
): Change;
export function revokedMessage(options: InboundOptions & { originalId: string }): Change;
export function contactSync(options: {
  phoneNumberId: string;
  wabaId?: string;
  contacts: {
    phone: string;
    fullName?: string;
    firstName?: string;
    action?: "add" | "remove";
    timestamp?: string;
  }[];
}): Change;
export interface HistoryMessage {
  text?: string;
  type?: string;
  part?: Record<string, unknown>;
  fromBusiness?: boolean;
  id?: string;
  timestamp?: string;
  status?: string;
}
export function historyChunk(options: {
  phoneNumberId: string;
  displayPhoneNumber?: string;
  wabaId?: string;
  phase?: number;
  chunkOrder?: number;
  progress?: number;
  threads: { customer: string; messages: HistoryMessage[] }[];
}): Change;
export function historyDeclined(options: { phoneNumberId: string; wabaId?: string }): Change;
export function threadHandover(options: {
  phoneNumberId: string;
  wabaId?: string;
  from?: string;
  userId?: string;
  newOwnerAppId: string;
  previousOwnerAppId?: string | null;
  kind?: "pass" | "take";
  timestamp?: string;
}): Change;
export const META_BUSINESS_AGENT_APP_ID: string;
export function accountUpdate(options: {
  wabaId: string;
  event?:
    | "PARTNER_REMOVED"
    | "ACCOUNT_OFFBOARDED"
    | "ACCOUNT_RECONNECTED"
    | "DISABLED_UPDATE"
    | "ACCOUNT_DELETED";
  reason?: string;
  initiatedBy?: string;
  /** null: an event that names no number. */
  phoneNumber?: string | null;
  /** `DISABLED_UPDATE`'s `ban_info.waba_ban_state`. */
  banState?: "DISABLE" | "SCHEDULE_FOR_DISABLE" | "REINSTATE";
}): Change;
export function userPreferences(options: {
  phoneNumberId: string;
  wabaId?: string;
  /** The customer's phone (wa_id); absent when Meta names them only by BSUID. */
  from?: string;
  userId?: string;
  value?: "stop" | "resume";
  category?: string;
  /** Unix seconds, as Meta sends it (a number in the payload). */
  timestamp?: string;
}): Change;
export interface EncryptedFlowRequest {
  body: { encrypted_flow_data: string; encrypted_aes_key: string; initial_vector: string };
  open(text: string): Promise<unknown>;
}
export function encryptFlowRequest(
  publicKeyPem: string,
  payload: Record<string, unknown>,
): Promise<EncryptedFlowRequest>;
type MessageOptions = Omit<Parameters<typeof inboundMessage>[0], "type" | "part" | "text">;
export function flowCompletion(
  options: MessageOptions & { response: Record<string, unknown> },
): Change;
export function listReply(
  options: MessageOptions & { replyId: string; title: string; description?: string },
): Change;
