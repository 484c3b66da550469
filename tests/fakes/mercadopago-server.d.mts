export const REFUSED_MERCADOPAGO_TOKEN: string;
export function mercadoPagoSignature(
  dataId: string,
  requestId: string,
  secret: string,
  ts?: number,
): string;
export function startFakeMercadoPago(options?: {
  port?: number;
  /** The organization's webhooks' secret, unless a control names its own `webhook_secret`. */
  webhookSecret?: string;
  /** POST each notification to the preference's `notification_url` (the sandbox). */
  deliver?: boolean;
}): Promise<{ port: number; url: string; requests: unknown[]; close(): Promise<void> }>;
