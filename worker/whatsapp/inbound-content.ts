/**
 * What the console shows for each kind of WhatsApp message: the text, a caption or title,
 * or a Spanish placeholder. Media keep Meta's id and MIME type for the media route.
 */
import { DOCUMENT_PLACEHOLDER_PREFIX, MEDIA_PLACEHOLDERS } from "../conversations/contract";
export interface InboundMessage {
  id: string;
  from: string;
  timestamp: string;
  type: string;
  text?: { body?: string };
  image?: MediaPart;
  audio?: MediaPart & { voice?: boolean };
  video?: MediaPart;
  document?: MediaPart & { filename?: string };
  sticker?: MediaPart & { animated?: boolean };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string } }[];
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
    nfm_reply?: { name?: string; body?: string };
  };
  button?: { text?: string; payload?: string };
  reaction?: { message_id?: string; emoji?: string };
  order?: { product_items?: unknown[]; text?: string };
  system?: { body?: string; type?: string; wa_id?: string; new_wa_id?: string };
  referral?: Record<string, unknown> & {
    ctwa_clid?: string;
    source_id?: string;
    headline?: string;
  };
  context?: { id?: string; from?: string };
  errors?: { code?: number; title?: string; message?: string }[];
}

interface MediaPart {
  id?: string;
  mime_type?: string;
  caption?: string;
}

export interface ReadableContent {
  content: string;
  mediaId: string | null;
  mediaMimeType: string | null;
}

const plain = (content: string): ReadableContent => ({
  content,
  mediaId: null,
  mediaMimeType: null,
});
const media = (part: MediaPart | undefined, fallback: string): ReadableContent => ({
  content: part?.caption?.trim() || fallback,
  mediaId: part?.id ?? null,
  mediaMimeType: part?.mime_type ?? null,
});

export function readableContent(message: InboundMessage): ReadableContent {
  switch (message.type) {
    case "text":
      return plain(message.text?.body ?? "");
    case "image":
      return media(message.image, MEDIA_PLACEHOLDERS.image);
    case "audio":
      return media(
        message.audio,
        message.audio?.voice ? MEDIA_PLACEHOLDERS.voice : MEDIA_PLACEHOLDERS.audio,
      );
    case "video":
      return media(message.video, MEDIA_PLACEHOLDERS.video);
    case "document":
      return media(
        message.document,
        `${DOCUMENT_PLACEHOLDER_PREFIX}${message.document?.filename ?? "Documento"}`,
      );
    case "sticker":
      return media(message.sticker, MEDIA_PLACEHOLDERS.sticker);
    case "location": {
      const l = message.location ?? {};
      const place = [l.name, l.address].filter(Boolean).join(", ");
      return plain(`📍 ${place || `Ubicación (${l.latitude ?? "?"}, ${l.longitude ?? "?"})`}`);
    }
    case "contacts": {
      const names = (message.contacts ?? []).map((c) => c.name?.formatted_name).filter(Boolean);
      return plain(`👤 Contacto compartido: ${names.join(", ") || "sin nombre"}`);
    }
    case "interactive": {
      const i = message.interactive ?? {};
      const title = i.button_reply?.title ?? i.list_reply?.title ?? i.nfm_reply?.body;
      const description = i.list_reply?.description ? ` — ${i.list_reply.description}` : "";
      return plain(title ? `${title}${description}` : "Respuesta interactiva");
    }
    case "button":
      return plain(message.button?.text ?? "Botón pulsado");
    case "order": {
      const items = message.order?.product_items?.length ?? 0;
      return plain(
        `🛒 Pedido de ${items} producto${items === 1 ? "" : "s"}${message.order?.text ? `: ${message.order.text}` : ""}`,
      );
    }
    case "system":
      return plain(message.system?.body ?? "Aviso del sistema de WhatsApp");
    case "unsupported":
      return plain(
        "Mensaje no admitido por WhatsApp (el cliente envió un tipo que la API no entrega)",
      );
    default:
      return plain(`Mensaje de tipo «${message.type}»`);
  }
}
