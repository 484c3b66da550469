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
  from: string;
  name?: string;
  userId?: string;
  id?: string;
  timestamp?: string;
  type?: string;
  text?: string;
  part?: Record<string, unknown>;
  referral?: Record<string, unknown>;
  context?: Record<string, unknown>;
}): Change;
export function burst(...changes: Change[]): Change;
export function statusUpdate(options: {
  phoneNumberId: string;
  wabaId?: string;
  id: string;
  recipientId: string;
  status: string;
  timestamp?: string;
  errors?: Record<string, unknown>[];
}): Change;
export function ctwaReferral(options?: {
  adId?: string;
  headline?: string;
  ctwaClid?: string | null;
}): Record<string, unknown>;
export function signPayload(rawBody: string, appSecret: string): Promise<string>;
