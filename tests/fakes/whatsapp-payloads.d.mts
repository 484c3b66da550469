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
}): Change;
export function ctwaReferral(options?: {
  adId?: string;
  headline?: string;
  ctwaClid?: string | null;
}): Record<string, unknown>;
export function signPayload(rawBody: string, appSecret: string): Promise<string>;
