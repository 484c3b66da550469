/**
 * What the console shows for each kind of WhatsApp message: the text, a caption or title,
 * or a Spanish placeholder. Media keep Meta's id and MIME type for the media route.
 */
import { DOCUMENT_PLACEHOLDER_PREFIX, MEDIA_PLACEHOLDERS } from "../../contracts/conversations";

/**
 * Meta's time (unix seconds, a string or a number) as ISO; `fallback` (now by default) when it
 * is missing or malformed.
 */
export const isoFromSeconds = (seconds: unknown, fallback = new Date().toISOString()) => {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : fallback;
};
export interface InboundMessage {
  id: string;
  /** The customer's phone (wa_id): absent when a customer with a username withholds it. */
  from?: string;
  /** The customer's business-scoped user id (BSUID), on every message since 2026. */
  from_user_id?: string;
  timestamp: string;
  type: string;
  text?: { body?: string };
  image?: MediaPart;
  audio?: MediaPart & { voice?: boolean };
  video?: MediaPart;
  document?: MediaPart & { filename?: string };
  sticker?: MediaPart & { animated?: boolean };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: {
    name?: { formatted_name?: string };
    phones?: { phone?: string; wa_id?: string }[];
    /** `contact_request`: the customer shared their own phone when the business asked. */
    origin?: string;
  }[];
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
    /** A Flow completed: `response_json` carries its `flow_token` and the last screen's params. */
    nfm_reply?: { name?: string; body?: string; response_json?: string };
  };
  button?: { text?: string; payload?: string };
  reaction?: { message_id?: string; emoji?: string };
  order?: { product_items?: unknown[]; text?: string };
  system?: {
    body?: string;
    type?: string;
    wa_id?: string;
    new_wa_id?: string;
    user_id?: string;
    previous_user_id?: string;
  };
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
      const shared = message.contacts?.find((c) => c.origin === "contact_request");
      const phone = shared?.phones?.[0]?.wa_id;
      if (phone) return plain(`📱 El cliente compartió su teléfono: +${phone}`);
      const names = (message.contacts ?? []).map((c) => c.name?.formatted_name).filter(Boolean);
      return plain(`👤 Contacto compartido: ${names.join(", ") || "sin nombre"}`);
    }
    case "interactive": {
      const i = message.interactive ?? {};
      if (i.nfm_reply) return plain(flowCompletionLine(i.nfm_reply.response_json));
      const title = i.button_reply?.title ?? i.list_reply?.title;
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
      return plain(systemLine(message.system));
    case "unsupported":
      return plain(
        "Mensaje no admitido por WhatsApp (el cliente envió un tipo que la API no entrega)",
      );
    default:
      return plain(`Mensaje de tipo «${message.type}»`);
  }
}

/**
 * A Flow's completion as people read it: the booking Flow's summary ("Limpieza dental el 3 de
 * diciembre a las 10:00", durable-objects/flows/screens.ts), or a plain line for any other Flow.
 */
function flowCompletionLine(responseJson: string | undefined) {
  let summary: unknown;
  try {
    summary = (JSON.parse(responseJson ?? "") as { summary?: unknown } | null)?.summary;
  } catch {
    summary = undefined;
  }
  return typeof summary === "string" && summary.trim()
    ? `📅 Reservó desde el formulario: ${summary.trim().slice(0, 300)}`
    : "📋 Formulario completado";
}

/** The thread's Spanish line for WhatsApp's notices about the customer's identity. */
function systemLine(system: InboundMessage["system"]): string {
  const newPhone = system?.wa_id ?? system?.new_wa_id;
  if (system?.type === "user_changed_number" && newPhone)
    return `El cliente cambió su número de WhatsApp a +${newPhone}.`;
  if (system?.type === "user_changed_user_id")
    return "El identificador de WhatsApp del cliente cambió; la conversación sigue aquí.";
  return system?.body ?? "Aviso del sistema de WhatsApp";
}
