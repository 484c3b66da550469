/**
 * The text of an imported file: .txt and .md as UTF-8, PDFs through unpdf (PDF.js built for
 * serverless runtimes, runs in workerd). Refusals are 422 with the reason in Spanish.
 */
import { getDocumentProxy } from "unpdf";
import { AppError } from "../../worker/http/errors";
import { Deadline, TooSlow, UnmeasurablePdf, WORK_BETWEEN_CHECKS, decodedSize } from "./pdf-scan";
import {
  KNOWLEDGE_CAPS_TEXT,
  KNOWLEDGE_CONTENT_MAX,
  KNOWLEDGE_FILE_EMPTY,
  KNOWLEDGE_FILE_MAX_BYTES,
  KNOWLEDGE_FILE_TOO_LARGE,
  KNOWLEDGE_PDF_UNREADABLE,
  KNOWLEDGE_PDF_WITHOUT_TEXT,
  KNOWLEDGE_TEXT_TOO_LONG,
  KNOWLEDGE_UNSUPPORTED_FILE,
} from "../../contracts/knowledge";

/** More pages than this is not a knowledge entry. */
const MAX_PDF_PAGES = 300;

/** What bounds reading a PDF; tests pass smaller ones. */
export interface PdfLimits {
  /**
   * What a PDF's streams may decode to, every layer of every stream together. A text PDF of
   * 100,000 characters decodes to a few megabytes; a 4 MB file can inflate to gigabytes, which
   * the Worker's 128 MB would not survive. Measured before PDF.js sees the file (pdf-scan.ts).
   */
  decodedBytes: number;
  /** Reading stops here however far it got: an import is a request a person waits on. */
  milliseconds: number;
}
export const PDF_LIMITS: PdfLimits = { decodedBytes: 32 * 1024 * 1024, milliseconds: 10_000 };

const PDF_TOO_BIG_DECODED = `El PDF ocupa más de 32 MB una vez descomprimido: divídelo en archivos más pequeños. ${KNOWLEDGE_CAPS_TEXT}`;
const PDF_TOO_SLOW = `El PDF tarda demasiado en leerse: divídelo en archivos más pequeños. ${KNOWLEDGE_CAPS_TEXT}`;

/** A chunk of text counts for a sixteenth of the work between looks at the clock. */
const TEXT_CHUNK_WORK = WORK_BETWEEN_CHECKS / 16;

const refused = (message: string) => new AppError(422, "invalid_file", message);
/** Too big is 413, as the body limit in front of the route answers (routes.ts). */
export const fileTooLarge = () => new AppError(413, "invalid_file", KNOWLEDGE_FILE_TOO_LARGE);

type FileKind = "text" | "pdf";

/** By extension first (browsers send .md as anything), then by MIME type. */
function kindOf(file: File): FileKind | null {
  const name = file.name.toLowerCase();
  if (name.endsWith(".pdf") || file.type === "application/pdf") return "pdf";
  if (/\.(txt|md|markdown)$/.test(name) || /^text\/(plain|markdown)$/.test(file.type)) {
    return "text";
  }
  return null;
}

/** The entry's title: the file's name without its extension. */
export function titleFromFileName(name: string) {
  const base = name.replace(/^.*[\\/]/, "").replace(/\.[^.]+$/, "");
  const title = base.replace(/[_]+/g, " ").trim() || "Documento importado";
  return title.slice(0, 200);
}

/** One chunk of a page's text as PDF.js streams it: text runs, and marked-content markers without `str`. */
interface TextChunk {
  items: ({ str: string; hasEOL: boolean } | { type: string })[];
}

/**
 * A PDF's text, refused (413/422) when it decodes past `limits.decodedBytes`, could decode
 * unmeasured, is too long or takes longer than `limits.milliseconds`.
 *
 * What the time bound can interrupt: PDF.js runs in this isolate on microtasks and gives
 * control back only when a page's text stream waits for its reader. Each chunk of text (up to
 * a hundred runs, or one form that draws text) is such a point: every few chunks this loop
 * yields to the event loop, looks at the clock and, past the deadline, cancels the page and
 * destroys the document (PDF.js's task stops at its next step). What it cannot: a stretch that
 * yields no text (opening the document, a long content stream of drawing, loading a font, a
 * Type 3 font's glyph procedures) runs to its end first. Most of that is bounded by the bytes it
 * reads, which the decoded-size check caps before PDF.js starts; a glyph that draws forms that
 * draw forms is not, and is left to the Worker's CPU limit.
 */
export async function pdfText(bytes: Uint8Array<ArrayBuffer>, limits = PDF_LIMITS) {
  const deadline = new Deadline(limits.milliseconds);
  let decoded;
  try {
    decoded = await decodedSize(bytes, limits.decodedBytes, deadline);
  } catch (error) {
    if (error instanceof UnmeasurablePdf) throw refused(KNOWLEDGE_PDF_UNREADABLE);
    if (error instanceof TooSlow) throw refused(PDF_TOO_SLOW);
    throw error;
  }
  if (decoded > limits.decodedBytes) throw new AppError(413, "invalid_file", PDF_TOO_BIG_DECODED);
  let pdf;
  try {
    // Images are never decoded for text: a tiny cap keeps a hostile one from allocating much.
    pdf = await getDocumentProxy(bytes, { maxImageSize: 1024 * 1024, verbosity: 0 });
  } catch {
    throw refused(KNOWLEDGE_PDF_UNREADABLE);
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw refused(`El PDF tiene más de ${MAX_PDF_PAGES} páginas. ${KNOWLEDGE_TEXT_TOO_LONG}`);
    }
    // Chunk by chunk, so that too much text or too long is refused as soon as it shows.
    const pages: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      await deadline.spend(TEXT_CHUNK_WORK);
      const reader = (await pdf.getPage(number)).streamTextContent().getReader();
      let text = "";
      let read = false;
      try {
        for (;;) {
          const { done, value } = (await reader.read()) as ReadableStreamReadResult<TextChunk>;
          if (done) {
            read = true;
            break;
          }
          for (const item of value.items) {
            if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
          }
          if (length + text.length > 2 * KNOWLEDGE_CONTENT_MAX) {
            throw refused(KNOWLEDGE_TEXT_TOO_LONG);
          }
          await deadline.spend(TEXT_CHUNK_WORK);
        }
      } finally {
        // Cancelling stops PDF.js's task for the page, which would otherwise wait for this
        // reader forever, and so would destroying the document. PDF.js asks for a reason.
        if (!read) void reader.cancel(new Error("Lectura interrumpida")).catch(() => {});
      }
      length += text.length;
      pages.push(text);
    }
    return pages.join("\n");
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof TooSlow) throw refused(PDF_TOO_SLOW);
    throw refused(KNOWLEDGE_PDF_UNREADABLE);
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** Blank lines and spaces as a person would leave them: at most one empty line in a row. */
const tidy = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/** Reads an uploaded file as an entry's title and content, or refuses it (422). */
export async function readKnowledgeFile(file: File) {
  const kind = kindOf(file);
  if (!kind) throw refused(KNOWLEDGE_UNSUPPORTED_FILE);
  if (file.size > KNOWLEDGE_FILE_MAX_BYTES) throw fileTooLarge();
  if (file.size === 0) throw refused(KNOWLEDGE_FILE_EMPTY);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const raw = kind === "pdf" ? await pdfText(bytes) : new TextDecoder("utf-8").decode(bytes);
  const content = tidy(raw);
  if (!content) throw refused(kind === "pdf" ? KNOWLEDGE_PDF_WITHOUT_TEXT : KNOWLEDGE_FILE_EMPTY);
  if (content.length > KNOWLEDGE_CONTENT_MAX) throw refused(KNOWLEDGE_TEXT_TOO_LONG);
  return { title: titleFromFileName(file.name), content, fileName: file.name.slice(0, 255) };
}
