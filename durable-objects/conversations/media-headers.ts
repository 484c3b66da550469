/**
 * How a customer's file is served from the console's origin. Whatever a customer sends is
 * untrusted: only pictures, sounds and videos are shown inline, in a type the browser renders
 * without running anything; everything else is a download of a known type or
 * application/octet-stream, never sniffed, sandboxed if opened anyway.
 */
import { DOCUMENT_PLACEHOLDER_PREFIX, MEDIA_LIMITS } from "../../contracts/conversations";

/** Shown in the page: images, audio and video WhatsApp carries (never SVG, which can script). */
const INLINE_TYPES = new Set<string>([
  ...MEDIA_LIMITS.image.mimeTypes,
  "image/webp", // stickers
  ...MEDIA_LIMITS.audio.mimeTypes,
  ...MEDIA_LIMITS.video.mimeTypes,
]);

/** Downloaded with their own type: the documents WhatsApp carries. */
const DOWNLOAD_TYPES = new Set<string>(MEDIA_LIMITS.document.mimeTypes);

const FALLBACK_TYPE = "application/octet-stream";

/** "Audio/OGG; codecs=opus" → "audio/ogg". */
const baseType = (mimeType: string) => mimeType.split(";")[0]!.trim().toLowerCase();

/** A file name safe inside a quoted header value: ASCII letters, digits, dot, dash, underscore. */
function asciiName(name: string) {
  const safe = name
    .normalize("NFKD")
    .replace(/[^\w.-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 100);
  return safe || "archivo";
}

/** RFC 5987's encoding of a name (encodeURIComponent leaves `'()*` as they are). */
const utf8Name = (name: string) =>
  encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** A document's file name, when its content is the placeholder that carries it. */
export function documentName(type: string, content: string) {
  if (type !== "document" || !content.startsWith(DOCUMENT_PLACEHOLDER_PREFIX)) return null;
  return content.slice(DOCUMENT_PLACEHOLDER_PREFIX.length) || null;
}

/** The response headers for a customer's file of `mimeType` saved as `fileName`. */
export function mediaHeaders(mimeType: string | null, fileName: string): Record<string, string> {
  const type = baseType(mimeType ?? "");
  const inline = INLINE_TYPES.has(type);
  const contentType = inline || DOWNLOAD_TYPES.has(type) ? type : FALLBACK_TYPE;
  return {
    "Content-Type": contentType,
    "Content-Disposition": inline
      ? "inline"
      : `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${utf8Name(fileName)}`,
    "X-Content-Type-Options": "nosniff",
    // Opened on its own anyway, the file runs nothing and loads nothing.
    "Content-Security-Policy":
      "default-src 'none'; img-src 'self' data:; media-src 'self'; sandbox",
    // Customers' files are private: never kept by shared caches.
    "Cache-Control": "private, max-age=300",
  };
}
