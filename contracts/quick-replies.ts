/** An organization's saved answers, inserted in the composer by typing "/". */
import { z } from "zod/mini";

export const quickReplyInput = z.object({
  shortcut: z
    .string({ error: "El atajo es obligatorio" })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.regex(/^[a-z0-9_-]{1,30}$/, "El atajo usa letras, números, - o _ (máximo 30)"),
    ),
  content: z
    .string({ error: "El texto es obligatorio" })
    .check(
      z.trim(),
      z.minLength(1, "El texto es obligatorio"),
      z.maxLength(4096, "El texto no puede superar 4096 caracteres"),
    ),
});

export const quickReplyUpdateInput = z.partial(quickReplyInput);

export interface QuickReply {
  id: string;
  shortcut: string;
  content: string;
  updated_at: string;
}
