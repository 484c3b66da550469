/**
 * The team inbox for people (contract section 14): who holds a conversation, how new work is
 * shared out, internal notes with mentions, and labels. Shapes shared with the console.
 */
import { z } from "zod";

export const AUTO_ASSIGN_MODES = ["off", "round_robin"] as const;
export type AutoAssignMode = (typeof AUTO_ASSIGN_MODES)[number];

/** A label as a conversation carries it. */
export interface LabelRef {
  id: string;
  name: string;
  color: string;
}

export interface Label extends LabelRef {
  created_at: string;
}

/** The palette the console offers (Tailwind 600s: white text reads on each at 4.5:1). */
export const LABEL_COLORS = [
  "#dc2626",
  "#ea580c",
  "#ca8a04",
  "#16a34a",
  "#0d9488",
  "#2563eb",
  "#7c3aed",
  "#db2777",
  "#475569",
] as const;

const labelName = z
  .string({ error: "El nombre de la etiqueta es obligatorio" })
  .trim()
  .min(1, "El nombre de la etiqueta es obligatorio")
  .max(40, "El nombre de la etiqueta admite 40 caracteres como máximo");
const labelColor = z
  .string({ error: "Elige un color" })
  .regex(/^#[0-9a-fA-F]{6}$/, "El color debe ser hexadecimal, como #2563eb")
  .transform((c) => c.toLowerCase());

export const labelInput = z.object({ name: labelName, color: labelColor });
export const labelUpdateInput = z
  .object({ name: labelName.optional(), color: labelColor.optional() })
  .refine((v) => v.name !== undefined || v.color !== undefined, "Indica un nombre o un color");

export const conversationLabelsInput = z.object({
  label_ids: z
    .array(z.string().min(1).max(64), { error: "label_ids debe ser una lista" })
    .max(20, "Una conversación admite 20 etiquetas como máximo"),
});

export const NOTE_MAX_LENGTH = 4000;
export const noteInput = z.object({
  content: z
    .string({ error: "La nota no puede estar vacía" })
    .trim()
    .min(1, "La nota no puede estar vacía")
    .max(NOTE_MAX_LENGTH, `La nota admite ${NOTE_MAX_LENGTH} caracteres como máximo`),
});

export interface Note {
  id: string;
  conversation_id: string;
  content: string;
  author_id: string | null;
  /** The members the note names with `@`, as user ids. */
  mentions: string[];
  created_at: string;
}

export interface Mention {
  id: string;
  conversation_id: string;
  note_id: string;
  author_id: string | null;
  /** The note's first characters, for the "Menciones" list. */
  excerpt: string;
  read_at: string | null;
  created_at: string;
}

export const mentionsQuery = z.object({
  unread: z.enum(["true", "false"]).optional(),
});
