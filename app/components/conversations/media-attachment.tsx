import { useEffect, useRef, useState } from "react";
import {
  DOCUMENT_PLACEHOLDER_PREFIX,
  MEDIA_PLACEHOLDERS,
  type Message,
} from "../../../contracts/conversations";
import { blob, client, errorMessage } from "~/lib/api";

/** Message types that carry a file the console can show or download. */
const MEDIA_TYPES = new Set(["image", "sticker", "audio", "video", "document"]);

/** The texts the server stores when a file comes without a caption. */
const PLACEHOLDERS = new Set<string>(Object.values(MEDIA_PLACEHOLDERS));
const DOCUMENT_PREFIX = DOCUMENT_PLACEHOLDER_PREFIX;

export const hasMedia = (message: Message) =>
  message.media !== null && MEDIA_TYPES.has(message.type);

/** The caption to show under a file, or null when the content is only a placeholder. */
export function mediaCaption(message: Message): string | null {
  const content = message.content.trim();
  if (!content || PLACEHOLDERS.has(content)) return null;
  if (message.type === "document" && content.startsWith(DOCUMENT_PREFIX)) return null;
  return content;
}

function documentName(message: Message) {
  const content = message.content.trim();
  return content.startsWith(DOCUMENT_PREFIX)
    ? content.slice(DOCUMENT_PREFIX.length) || "Documento"
    : "Documento";
}

type FileState =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "ready"; url: string }
  | { state: "error"; message: string };

/**
 * The message's file, fetched with the bearer token from the authenticated media route and
 * shown through an object URL (revoked when the bubble goes away).
 */
function useMessageFile(message: Message) {
  const [file, setFile] = useState<FileState>({ state: "idle" });
  const urlRef = useRef<string | null>(null);

  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = null;
    },
    [message.id],
  );

  async function load() {
    setFile({ state: "loading" });
    try {
      const file = await blob(
        client.conversations[":id"].messages[":messageId"].media.$get({
          param: { id: message.conversation_id, messageId: message.id },
        }),
      );
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = URL.createObjectURL(file);
      setFile({ state: "ready", url: urlRef.current });
      return urlRef.current;
    } catch (error) {
      setFile({ state: "error", message: errorMessage(error) });
      return null;
    }
  }
  return { file, load };
}

/** Calls `onVisible` once, when the element first comes near the screen. */
function useWhenVisible(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    if (typeof IntersectionObserver === "undefined") return latest.current();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        latest.current();
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

const TYPE_NAMES: Record<string, string> = {
  image: "la imagen",
  sticker: "el sticker",
  audio: "el audio",
  video: "el vídeo",
  document: "el documento",
};

/** The file of a media message: image and sticker inline, audio and video playable, documents to download. */
export function MediaAttachment({ message }: { message: Message }) {
  const { file, load } = useMessageFile(message);
  const isDocument = message.type === "document";
  const ref = useWhenVisible(() => void load(), !isDocument);
  const what = TYPE_NAMES[message.type] ?? "el archivo";
  const outbound = message.direction === "outbound";

  if (isDocument) return <DocumentLink message={message} file={file} load={load} />;

  return (
    <div ref={ref} className="mb-1">
      {file.state === "ready" ? (
        <MediaElement message={message} url={file.url} />
      ) : file.state === "error" ? (
        <div
          role="alert"
          className="flex items-center gap-2 rounded-lg bg-red-50 px-2 py-1 text-xs text-red-700"
        >
          <span>
            No se pudo cargar {what}: {file.message}
          </span>
          <button type="button" className="underline" onClick={() => void load()}>
            Reintentar
          </button>
        </div>
      ) : (
        <div
          role="status"
          aria-busy="true"
          className={`flex h-24 w-40 items-center justify-center rounded-lg text-xs ${outbound ? "bg-emerald-700/40" : "bg-slate-100 text-slate-500"}`}
        >
          Cargando {what}…
        </div>
      )}
    </div>
  );
}

function MediaElement({ message, url }: { message: Message; url: string }) {
  const caption = mediaCaption(message);
  switch (message.type) {
    case "image":
      return (
        <img
          src={url}
          alt={
            caption ?? (message.direction === "inbound" ? "Imagen del cliente" : "Imagen enviada")
          }
          className="max-h-72 max-w-full rounded-lg object-contain"
        />
      );
    case "sticker":
      return <img src={url} alt="Sticker" className="h-32 w-32 object-contain" />;
    case "audio":
      return <audio controls src={url} aria-label="Audio" className="max-w-full" />;
    default:
      return (
        <video controls src={url} aria-label="Vídeo" className="max-h-72 max-w-full rounded-lg" />
      );
  }
}

function DocumentLink({
  message,
  file,
  load,
}: {
  message: Message;
  file: FileState;
  load: () => Promise<string | null>;
}) {
  const name = documentName(message);
  const className = "mb-1 inline-flex items-center gap-1 font-medium underline";
  if (file.state === "ready") {
    return (
      <a href={file.url} download={name} className={className}>
        📄 {name}
      </a>
    );
  }
  // Documents are fetched only when asked for: they may be large.
  async function download() {
    const url = await load();
    if (!url) return;
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    link.click();
  }
  return (
    <div className="mb-1">
      <button
        type="button"
        className={className}
        disabled={file.state === "loading"}
        aria-label={`Descargar ${name}`}
        onClick={() => void download()}
      >
        📄 {name}
        {file.state === "loading" && <span className="text-xs no-underline"> (descargando…)</span>}
      </button>
      {file.state === "error" && (
        <p role="alert" className="text-xs text-red-600">
          No se pudo descargar el documento: {file.message}
        </p>
      )}
    </div>
  );
}
