/**
 * The text of an imported file: .txt and .md as UTF-8, PDFs through unpdf (PDF.js built for
 * serverless runtimes, runs in workerd). Refusals are 422 with the reason in Spanish.
 */
import { getDocumentProxy } from "unpdf";
import { AppError } from "../http/errors";
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
} from "./contract";

/** More pages than this is not a knowledge entry. */
const MAX_PDF_PAGES = 300;
/**
 * What a PDF's compressed streams may inflate to, all together. A text PDF of 100,000
 * characters decodes to a few megabytes; a 4 MB file can inflate to gigabytes, which the
 * Worker's 128 MB would not survive. Checked before PDF.js sees the file.
 */
const MAX_DECODED_BYTES = 32 * 1024 * 1024;
/** Reading stops here however far it got: an import is a request a person waits on. */
const MAX_EXTRACTION_MS = 10_000;

const PDF_TOO_BIG_DECODED = `El PDF ocupa más de 32 MB una vez descomprimido: divídelo en archivos más pequeños. ${KNOWLEDGE_CAPS_TEXT}`;
const PDF_TOO_SLOW = `El PDF tarda demasiado en leerse: divídelo en archivos más pequeños. ${KNOWLEDGE_CAPS_TEXT}`;

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

/** A stream's data is longer than its file allows, does not inflate as Flate, or is compressed in a way not measured here. */
class InvalidStream extends Error {}

/** Flate by its full name or PDF's abbreviation (PDF.js reads both). */
const FLATE_FILTER = /\/Fl(?:ateDecode)?(?![A-Za-z0-9])/;
/**
 * Filters that expand and are not measured (LZW, run-length), or a filter named by reference:
 * PDF.js would inflate them unbounded, and text PDFs today use Flate.
 */
const UNMEASURED_FILTER =
  /\/(?:LZWDecode|LZW|RunLengthDecode|RL)(?![A-Za-z0-9])|\/Filter\s+\d+\s+\d+\s+R/;

/**
 * How many bytes the PDF's Flate streams inflate to in all, counting no further than just
 * past `limit`. Each stream is inflated and dropped as it is read, so the check holds little.
 * A stream that does not inflate cleanly throws `InvalidStream`: PDF.js would read it
 * leniently, and a lenient reader is where a bomb hides.
 */
async function decodedSize(bytes: Uint8Array, limit: number) {
  // Latin-1 keeps one character per byte, so string positions are byte positions.
  const text = new TextDecoder("latin1").decode(bytes);
  let total = 0;
  for (let at = text.indexOf("stream"); at !== -1; at = text.indexOf("stream", at + 6)) {
    if (text.startsWith("end", at - 3)) continue;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf("obj", at)), at);
    if (UNMEASURED_FILTER.test(dictionary)) throw new InvalidStream();
    if (!FLATE_FILTER.test(dictionary)) continue;
    let start = at + 6;
    if (text[start] === "\r") start++;
    if (text[start] === "\n") start++;
    const endstream = text.indexOf("endstream", start);
    if (endstream === -1) break;
    total += await inflatedSize(
      bytes.subarray(start, streamEnd(text, dictionary, start, endstream)),
      limit - total,
    );
    if (total > limit) return total;
    at = endstream + 9;
  }
  return total;
}

/** Where a stream's data ends: its direct `/Length`, else before the end of line that precedes `endstream`. */
function streamEnd(text: string, dictionary: string, start: number, endstream: number) {
  const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
  if (direct) {
    const end = start + Number(direct[1]);
    if (end > endstream) throw new InvalidStream();
    return end;
  }
  let end = endstream;
  if (text[end - 1] === "\n") end--;
  if (text[end - 1] === "\r") end--;
  return end;
}

/** How many bytes `data` inflates to, reading no further than just past `limit`. */
async function inflatedSize(data: Uint8Array, limit: number) {
  const reader = new Blob([data])
    .stream()
    .pipeThrough(new DecompressionStream("deflate"))
    .getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.byteLength;
      if (size > limit) return size;
    }
  } catch {
    throw new InvalidStream();
  } finally {
    void reader.cancel().catch(() => {});
  }
}

async function pdfText(bytes: Uint8Array) {
  let decoded;
  try {
    decoded = await decodedSize(bytes, MAX_DECODED_BYTES);
  } catch (error) {
    if (error instanceof InvalidStream) throw refused(KNOWLEDGE_PDF_UNREADABLE);
    throw error;
  }
  if (decoded > MAX_DECODED_BYTES) throw new AppError(413, "invalid_file", PDF_TOO_BIG_DECODED);
  const deadline = Date.now() + MAX_EXTRACTION_MS;
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
    // Page by page, so that too much text or too long is refused as soon as it shows.
    const pages: string[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      if (Date.now() > deadline) throw refused(PDF_TOO_SLOW);
      const content = await (await pdf.getPage(number)).getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("");
      length += text.length;
      if (length > 2 * KNOWLEDGE_CONTENT_MAX) throw refused(KNOWLEDGE_TEXT_TOO_LONG);
      pages.push(text);
    }
    return pages.join("\n");
  } catch (error) {
    if (error instanceof AppError) throw error;
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
