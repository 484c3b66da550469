/** Shapes of the auth and profile calls, shared by the API and the console's forms. */
import { z } from "zod";
import type { Organization } from "../organizations/contract";

export const MIN_PASSWORD_LENGTH = 6;

export const emailField = z
  .string({ error: "El email es obligatorio" })
  .trim()
  .toLowerCase()
  .min(1, "El email es obligatorio")
  .max(254, "El email es demasiado largo")
  .pipe(z.email("Introduce un email válido"));

export const passwordField = z
  .string({ error: "La contraseña es obligatoria" })
  .min(1, "La contraseña es obligatoria")
  .min(MIN_PASSWORD_LENGTH, `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres`)
  .max(256, "La contraseña es demasiado larga");

export const fullNameField = z
  .string({ error: "El nombre completo es obligatorio" })
  .trim()
  .min(1, "El nombre completo es obligatorio")
  .max(120, "El nombre es demasiado largo");

export const loginInput = z.object({
  email: emailField,
  // Login checks only presence: a password shorter than today's minimum may predate it.
  password: z
    .string({ error: "La contraseña es obligatoria" })
    .min(1, "La contraseña es obligatoria")
    .max(256),
});

export const registerInput = z.object({
  email: emailField,
  password: passwordField,
  full_name: fullNameField,
});

export const profileUpdateInput = z.object({ full_name: fullNameField });

export type LoginInput = z.infer<typeof loginInput>;
export type RegisterInput = z.infer<typeof registerInput>;
export type ProfileUpdateInput = z.infer<typeof profileUpdateInput>;

export const ROLES = ["owner", "admin", "agent"] as const;
export type Role = (typeof ROLES)[number];

export interface User {
  id: string;
  email: string;
  full_name: string;
}

export interface AuthResult {
  token: string;
  user: User;
}

export interface Me {
  user: User;
  organization: Organization | null;
  role: Role | null;
  /** The member's own "Disponible" / "Ausente" for round robin; null without an organization. */
  available: boolean | null;
}

export interface Profile {
  id: string;
  full_name: string;
  email: string;
}

export const accountDeletionInput = z.object({
  password: z.string({ error: "Confirma tu contraseña" }).min(1, "Confirma tu contraseña").max(256),
});
