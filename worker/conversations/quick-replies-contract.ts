/** An organization's saved answers, inserted in the composer by typing "/". */
import { z } from "zod";

export const quickReplyInput = z.object({
  shortcut: z
    .string({ error: "El atajo es obligatorio" })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_-]{1,30}$/, "El atajo usa letras, números, - o _ (máximo 30)"),
  content: z
    .string({ error: "El texto es obligatorio" })
    .trim()
    .min(1, "El texto es obligatorio")
    .max(4096, "El texto no puede superar 4096 caracteres"),
});

export const quickReplyUpdateInput = quickReplyInput.partial();

export interface QuickReply {
  id: string;
  shortcut: string;
  content: string;
  updated_at: string;
}
