import { useRef } from "react";
import { toastFailed } from "~/lib/outcome";
import {
  MEDIA_LIMITS,
  outboundMediaType,
  type OutboundMediaType,
} from "../../../contracts/conversations";
import { Icon } from "~/components/ui/icon";

/** Every MIME type WhatsApp accepts as an attachment, for the file input. */
const ACCEPT = Object.values(MEDIA_LIMITS)
  .flatMap((limit) => limit.mimeTypes)
  .join(",");

/**
 * The paperclip: opens the file chooser and hands over a file WhatsApp will accept; a file it
 * would refuse (type or size) is reported with a toast and never uploaded.
 */
export function AttachButton({
  disabled,
  onFile,
}: {
  disabled?: boolean;
  onFile: (file: File, type: OutboundMediaType) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        aria-label="Adjuntar archivo"
        title="Adjuntar archivo"
        disabled={disabled}
        onClick={() => input.current?.click()}
        className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-300"
      >
        <Icon path="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="hidden"
        tabIndex={-1}
        aria-hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (!file) return;
          const checked = outboundMediaType(file);
          if ("error" in checked) {
            toastFailed("No se puede enviar el archivo", checked.error);
            return;
          }
          onFile(file, checked.type);
        }}
      />
    </>
  );
}
