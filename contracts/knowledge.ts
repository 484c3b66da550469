/** What the business knows (FAQ, prices, policies, hours): shapes shared by the API and the console. */
import { z } from "zod/mini";

export const KNOWLEDGE_TITLE_MAX = 200;
export const KNOWLEDGE_CONTENT_MAX = 100_000;
/** The largest file `POST /knowledge/import` reads: a price list or a policy, not a catalogue. */
export const KNOWLEDGE_FILE_MAX_BYTES = 5 * 1024 * 1024;
/** What the import reads, for the file picker's `accept`. */
export const KNOWLEDGE_IMPORT_ACCEPT = ".txt,.md,.pdf,text/plain,text/markdown,application/pdf";

/** The caps, as the import screen and every refusal say them. */
export const KNOWLEDGE_CAPS_TEXT =
  "Se admiten archivos .txt, .md o PDF con texto, de hasta 5 MB y 100.000 caracteres.";
export const KNOWLEDGE_FILE_TOO_LARGE = `El archivo supera los 5 MB. ${KNOWLEDGE_CAPS_TEXT}`;
export const KNOWLEDGE_TEXT_TOO_LONG = `El texto del archivo supera los 100.000 caracteres: divídelo en varias entradas. ${KNOWLEDGE_CAPS_TEXT}`;
export const KNOWLEDGE_UNSUPPORTED_FILE = `Ese tipo de archivo no se puede importar. ${KNOWLEDGE_CAPS_TEXT}`;
export const KNOWLEDGE_PDF_WITHOUT_TEXT =
  "El PDF no tiene texto que se pueda leer (¿es un documento escaneado?). Pega su texto en una entrada nueva.";
export const KNOWLEDGE_PDF_UNREADABLE =
  "No se pudo leer el PDF: el archivo está dañado o protegido.";
export const KNOWLEDGE_FILE_EMPTY = "El archivo está vacío.";

const title = z
  .string({ error: "El título es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El título es obligatorio"),
    z.maxLength(
      KNOWLEDGE_TITLE_MAX,
      `El título no puede superar ${KNOWLEDGE_TITLE_MAX} caracteres`,
    ),
  );

const content = z
  .string({ error: "El contenido es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El contenido es obligatorio"),
    z.maxLength(KNOWLEDGE_CONTENT_MAX, "El contenido no puede superar 100.000 caracteres"),
  );

export const knowledgeCreateInput = z.object({ title, content });

export const knowledgeUpdateInput = z
  .object({ title: z.optional(title), content: z.optional(content) })
  .check(
    z.refine(
      (v) => v.title !== undefined || v.content !== undefined,
      "Indica el título o el contenido",
    ),
  );

export const knowledgeImportForm = z.object({
  file: z.instanceof(File, { error: "Adjunta un archivo (campo file)." }),
});

/**
 * The entries an agent may use: their ids, or null for all of the organization's. Each id must
 * be one of the organization's entries (checked by the agents service).
 */
export const knowledgeIdsInput = z.nullable(
  z
    .array(z.string({ error: "Cada entrada es un id" }).check(z.trim(), z.minLength(1)), {
      error: "knowledge_ids es una lista de entradas o null",
    })
    .check(z.maxLength(500, "Demasiadas entradas: elige «Todo» o menos de 500")),
);

export type KnowledgeCreateInput = z.input<typeof knowledgeCreateInput>;
export type KnowledgeUpdateInput = z.input<typeof knowledgeUpdateInput>;

export interface KnowledgeEntry {
  id: string;
  title: string;
  content: string;
  /** The imported file's name, when the entry came from one. */
  file_name: string | null;
  created_at: string;
  updated_at: string;
}

/** How much of each entry's text `GET /knowledge` shows (the whole is `GET /knowledge/{id}`). */
export const KNOWLEDGE_EXCERPT_CHARS = 240;

/**
 * An entry as `GET /knowledge` lists it: its beginning and its size instead of its text, so the
 * list stays small however long the entries are (up to 100,000 characters each).
 */
export interface KnowledgeSummary extends Omit<KnowledgeEntry, "content"> {
  excerpt: string;
  /** The whole text's length, in characters. */
  characters: number;
}

/**
 * Each organization's knowledge, in all: room for a business's questions, prices and policies
 * many times over, and a bound on what one tenant stores and what its agents search
 * (docs/decisions/0046).
 */
export const KNOWLEDGE_MAX_ENTRIES = 500;
export const KNOWLEDGE_MAX_CHARACTERS = 2_000_000;
export const KNOWLEDGE_TOO_MANY_ENTRIES = `Tu organización ya tiene ${KNOWLEDGE_MAX_ENTRIES} entradas de conocimiento, el máximo: elimina alguna antes de añadir otra.`;
export const KNOWLEDGE_TOO_MANY_CHARACTERS =
  "El conocimiento de tu organización pasaría de 2.000.000 de caracteres, el máximo: acorta o elimina alguna entrada.";

export const KNOWLEDGE_PAGE_SIZE = 50;

/** `GET /knowledge?page&limit`: a page of 50 by default; the whole list fits in one at most. */
export const knowledgeListQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000)), 1),
  limit: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(KNOWLEDGE_MAX_ENTRIES)),
    KNOWLEDGE_PAGE_SIZE,
  ),
});

/** What the organization stores, against its caps. */
export interface KnowledgeUsage {
  entries: number;
  characters: number;
  max_entries: number;
  max_characters: number;
}

export interface KnowledgeList {
  entries: KnowledgeSummary[];
  total: number;
  page: number;
  limit: number;
  usage: KnowledgeUsage;
}

/** A knowledge entry as the model reads it in its prompt. */
export interface KnowledgeForPrompt {
  id: string;
  title: string;
  content: string;
}
