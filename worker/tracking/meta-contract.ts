/** Shapes of the Meta pixel calls, shared by the API and the console. */
import { z } from "zod";

const pixelId = z
  .string({ error: "El identificador del pixel es obligatorio" })
  .trim()
  .regex(/^\d{5,20}$/, "El identificador del pixel son solo dígitos");

export const metaConfigInput = z.object({
  pixel_id: pixelId,
  access_token: z
    .string({ error: "El token de acceso es obligatorio" })
    .trim()
    .min(1, "El token de acceso es obligatorio")
    .max(2000),
});

export const metaConfigUpdateInput = metaConfigInput.partial();

/** Connect by pixel id (with the token of the organization's Facebook Login) or by a login code. */
export const metaConnectInput = z.union([
  z.object({ code: z.string().trim().min(1).max(2000) }),
  z.object({ pixel_id: pixelId }),
]);

export interface MetaConfig {
  id: string;
  pixel_id: string;
  ad_account_id: string | null;
  status: "connected" | "connecting" | "disconnected" | "error";
  test_event_code: string | null;
  created_at: string;
}

export interface MetaTestResult {
  success: boolean;
  pixel_name?: string;
  error?: string;
}
