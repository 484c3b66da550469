/** Team members and invitations, shared by the API and the console. */
import { z } from "zod";
import { emailField, ROLES, type Role } from "../auth/contract";

export const INVITATION_LIFETIME_DAYS = 7;

export const invitationInput = z.object({
  email: emailField,
  role: z.enum(ROLES, { error: "Rol no válido" }).default("agent"),
});

export const roleChangeInput = z.object({ role: z.enum(ROLES, { error: "Rol no válido" }) });

export const acceptInvitationInput = z.object({
  token: z.string({ error: "Falta el token de la invitación" }).trim().min(20).max(200),
});

export interface Member {
  user_id: string;
  full_name: string;
  email: string;
  role: Role;
  joined_at: string;
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
