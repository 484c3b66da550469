/** Shapes of the auth and profile calls, shared by the API and the console's forms. */
import { z } from "zod/mini";
import type { Organization } from "./organizations";

export const MIN_PASSWORD_LENGTH = 6;

export const emailField = z.pipe(
  z
    .string({ error: "El email es obligatorio" })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, "El email es obligatorio"),
      z.maxLength(254, "El email es demasiado largo"),
    ),
  z.email("Introduce un email válido"),
);

export const passwordField = z
  .string({ error: "La contraseña es obligatoria" })
  .check(
    z.minLength(1, "La contraseña es obligatoria"),
    z.minLength(
      MIN_PASSWORD_LENGTH,
      `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres`,
    ),
    z.maxLength(256, "La contraseña es demasiado larga"),
  );

export const fullNameField = z
  .string({ error: "El nombre completo es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El nombre completo es obligatorio"),
    z.maxLength(120, "El nombre es demasiado largo"),
  );

export const loginInput = z.object({
  email: emailField,
  // Login checks only presence: a password shorter than today's minimum may predate it.
  password: z
    .string({ error: "La contraseña es obligatoria" })
    .check(z.minLength(1, "La contraseña es obligatoria"), z.maxLength(256)),
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
  password: z
    .string({ error: "Confirma tu contraseña" })
    .check(z.minLength(1, "Confirma tu contraseña"), z.maxLength(256)),
});
