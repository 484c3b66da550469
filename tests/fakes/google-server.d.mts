export const GOOGLE_CLIENT_ID: string;
export const GOOGLE_CLIENT_SECRET: string;
export function startFakeGoogle(options?: {
  port?: number;
  clientId?: string;
  clientSecret?: string;
}): Promise<{ port: number; url: string; requests: unknown[]; close(): Promise<void> }>;
