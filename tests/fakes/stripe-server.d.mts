export const REFUSED_STRIPE_KEY: string;
export function stripeSignature(payload: string, secret: string, timestamp?: number): string;
export function startFakeStripe(options?: {
  port?: number;
  /** Where `/__fake/pay|expire|refund` POST their signed event (none: only answered). */
  webhookUrl?: string;
  /** The endpoint's signing secret, unless a control names its own `webhook_secret`. */
  webhookSecret?: string;
}): Promise<{ port: number; url: string; requests: unknown[]; close(): Promise<void> }>;
