export function startFakeModel(options?: {
  port?: number;
  apiKey?: string;
}): Promise<{ port: number; url: string; requests: unknown[]; close(): Promise<void> }>;
