/**
 * A Meta access token as a person pastes it: printable ASCII without spaces, as Meta issues
 * them. Anything else is refused in Spanish before it reaches a request header (where a control
 * character would make the call fail as if Meta were down).
 */
import { z } from "zod/mini";

export const metaAccessToken = z
  .string({ error: "El token de acceso es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El token de acceso es obligatorio"),
    z.maxLength(2000, "El token de acceso es demasiado largo"),
    z.regex(
      /^[\x21-\x7e]+$/,
      "El token de acceso solo admite letras, números y signos, sin espacios",
    ),
  );
