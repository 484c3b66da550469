/**
 * The team inbox for people (contract section 14): who holds a conversation, how new work is
 * shared out, internal notes with mentions, and labels. Shapes shared with the console.
 */
import { z } from "zod/mini";
import { foldText } from "./text";

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
  .check(
    z.trim(),
    z.minLength(1, "El nombre de la etiqueta es obligatorio"),
    z.maxLength(40, "El nombre de la etiqueta admite 40 caracteres como máximo"),
  );
const labelColor = z.pipe(
  z
    .string({ error: "Elige un color" })
    .check(z.regex(/^#[0-9a-fA-F]{6}$/, "El color debe ser hexadecimal, como #2563eb")),
  z.transform((c) => c.toLowerCase()),
);

/**
 * Each organization's labels, in all: a busy inbox uses a few dozen (products, campaigns,
 * states); 200 leaves room for that many times over and keeps `GET /labels`, which the console
 * reads whole for its filters and pickers, one bounded answer (docs/decisions/0039).
 */
export const LABELS_MAX = 200;
export const LABELS_TOO_MANY = `Tu organización ya tiene ${LABELS_MAX} etiquetas, el máximo: elimina alguna antes de crear otra.`;

export const labelInput = z.object({ name: labelName, color: labelColor });
export const labelUpdateInput = z
  .object({ name: z.optional(labelName), color: z.optional(labelColor) })
  .check(
    z.refine((v) => v.name !== undefined || v.color !== undefined, "Indica un nombre o un color"),
  );

export const conversationLabelsInput = z.object({
  label_ids: z
    .array(z.string().check(z.minLength(1), z.maxLength(64)), {
      error: "label_ids debe ser una lista",
    })
    .check(z.maxLength(20, "Una conversación admite 20 etiquetas como máximo")),
});

export const NOTE_MAX_LENGTH = 4000;
export const noteInput = z.object({
  content: z
    .string({ error: "La nota no puede estar vacía" })
    .check(
      z.trim(),
      z.minLength(1, "La nota no puede estar vacía"),
      z.maxLength(NOTE_MAX_LENGTH, `La nota admite ${NOTE_MAX_LENGTH} caracteres como máximo`),
    ),
});

/** A member as mentions see them (the server's row, the console's member). */
export interface Mentionable {
  id: string;
  name: string;
  email: string;
}

/** What may follow `@`, folded, and every member answering to it. */
export interface MentionHandle {
  handle: string;
  ids: string[];
}

/**
 * The handles a note's `@` is read against, in the order they are looked for: full names and
 * e-mail local parts, longest first (so "@Ana María" is not read as "@Ana"); then first names,
 * as people type them. A handle more than one member answers to names nobody: two Martas, and
 * "@Marta" is nobody's until the full name is typed.
 */
export function mentionHandles(team: readonly Mentionable[]): MentionHandle[] {
  const exact = new Map<string, Set<string>>();
  const first = new Map<string, Set<string>>();
  const add = (to: Map<string, Set<string>>, handle: string, id: string) => {
    if (handle) to.set(handle, (to.get(handle) ?? new Set()).add(id));
  };
  for (const member of team) {
    const name = foldText(member.name.trim());
    add(exact, name, member.id);
    add(exact, foldText(member.email.split("@")[0]!), member.id);
    add(first, name.split(/\s+/)[0]!, member.id);
  }
  const longestFirst = (handles: Map<string, Set<string>>) =>
    [...handles]
      .map(([handle, ids]) => ({ handle, ids: [...ids] }))
      .sort((a, b) => b.handle.length - a.handle.length);
  return [...longestFirst(exact), ...longestFirst(first)];
}

/**
 * What the console writes after `@` for a member: their full name, or their e-mail's local part
 * when another member has the same name, so that the note names exactly them.
 */
export function mentionText(member: Mentionable, team: readonly Mentionable[]) {
  const handles = mentionHandles(team);
  const onlyTheirs = (text: string) => {
    const found = handles.find((h) => h.handle === foldText(text));
    return found?.ids.length === 1 && found.ids[0] === member.id;
  };
  const name = member.name.trim();
  const local = member.email.split("@")[0]!;
  return !onlyTheirs(name) && onlyTheirs(local) ? local : name;
}

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
  unread: z.optional(z.enum(["true", "false"])),
});
