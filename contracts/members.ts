/** Team members and invitations, shared by the API and the console. */
import { z } from "zod/mini";
import { emailField, ROLES, type Role } from "./auth";

export const INVITATION_LIFETIME_DAYS = 7;

export const invitationInput = z.object({
  email: emailField,
  role: z._default(z.enum(ROLES, { error: "Rol no válido" }), "agent"),
});

export const roleChangeInput = z.object({ role: z.enum(ROLES, { error: "Rol no válido" }) });

/**
 * `PATCH /organizations/members/{user_id}`: a role (managers), availability (a member their
 * own, managers anyone's) and capacity (managers); an owner's availability and capacity only
 * they and other owners set. All of it or nothing: a refused part changes nothing.
 */
export const memberChangeInput = z
  .object({
    role: z.optional(z.enum(ROLES, { error: "Rol no válido" })),
    available: z.optional(z.boolean({ error: "available debe ser verdadero o falso" })),
    max_open: z.optional(
      z.nullable(
        z
          .number({ error: "La capacidad debe ser un número" })
          .check(
            z.int("La capacidad debe ser un número entero"),
            z.gte(1, "La capacidad mínima es 1 conversación"),
            z.lte(1000, "La capacidad máxima es 1000 conversaciones"),
          ),
      ),
    ),
  })
  .check(
    z.refine(
      (v) => v.role !== undefined || v.available !== undefined || v.max_open !== undefined,
      "Indica el rol, la disponibilidad o la capacidad",
    ),
  );

export const acceptInvitationInput = z.object({
  token: z
    .string({ error: "Falta el token de la invitación" })
    .check(z.trim(), z.minLength(20), z.maxLength(200)),
});

export interface Member {
  user_id: string;
  full_name: string;
  email: string;
  role: Role;
  joined_at: string;
  /** "Disponible" (true) or "Ausente": only available members get conversations by round robin. */
  available: boolean;
  /** Most open conversations round robin gives them; null: no limit. */
  max_open: number | null;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
  created_at: string;
  /** Only in the answer that creates it: the single-use link to hand to the person. */
  url?: string;
}
