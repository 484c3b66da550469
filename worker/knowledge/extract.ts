/**
 * The text of an imported file: .txt and .md as UTF-8, PDFs through unpdf (PDF.js built for
 * serverless runtimes, runs in workerd). Refusals are 422 with the reason in Spanish.
 */
import { extractText, getDocumentProxy } from "unpdf";
import { AppError } from "../http/errors";
import {
  KNOWLEDGE_CONTENT_MAX,
  KNOWLEDGE_FILE_EMPTY,
  KNOWLEDGE_FILE_MAX_BYTES,
  KNOWLEDGE_FILE_TOO_LARGE,
  KNOWLEDGE_PDF_UNREADABLE,
  KNOWLEDGE_PDF_WITHOUT_TEXT,
  KNOWLEDGE_TEXT_TOO_LONG,
  KNOWLEDGE_UNSUPPORTED_FILE,
} from "./contract";

/** PDF.js reads every page in one go: more pages than this is not a knowledge entry. */
const MAX_PDF_PAGES = 300;

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

async function pdfText(bytes: Uint8Array) {
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
    const { text } = await extractText(pdf, { mergePages: true });
    return text;
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
