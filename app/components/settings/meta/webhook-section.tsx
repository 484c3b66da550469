import { useState } from "react";
import { toastDone, toastFailed } from "~/lib/outcome";
import { Button } from "~/components/ui/button";
import { client, data } from "~/lib/api";
import { CopyableValue } from "./copy-button";
import { useOrigin } from "./use-origin";

interface WebhookSectionProps {
  /** The organization's verification token, if one was generated. */
  token: string | null;
  /** Tokens belong to a connection: without a number there is nothing to generate. */
  connected: boolean;
  canManage: boolean;
  /** Reads the connection (and its new token) again. */
  onToken: () => Promise<void>;
}

/** The webhook URL and verification token a business enters in its own Meta app. */
export function WebhookSection({ token, connected, canManage, onToken }: WebhookSectionProps) {
  const origin = useOrigin();
  const [generating, setGenerating] = useState(false);

  async function generate() {
    setGenerating(true);
    try {
      await data(client["whatsapp-config"]["generate-webhook-token"].$post());
      toastDone("Token de verificación generado");
      await onToken();
    } catch (error) {
      toastFailed("Error al generar el token de verificación", error);
    } finally {
      setGenerating(false);
    }
  }

  return (
    <div className="space-y-3 border-t border-slate-100 pt-5">
      <h3 className="text-sm font-semibold text-slate-900">Webhook</h3>
      <p className="text-sm text-slate-600">
        Solo si usas tu propia app de Meta: en Meta for Developers → WhatsApp → Configuración,
        indica esta URL de devolución de llamada y el token de verificación, y suscríbete al campo{" "}
        <code className="rounded bg-slate-100 px-1 text-xs">messages</code>.
      </p>
      <CopyableValue label="URL del webhook" value={`${origin}/webhooks/whatsapp`} />
      {token && <CopyableValue label="Token de verificación" value={token} />}
      {canManage &&
        (connected ? (
          <Button variant="secondary" onClick={generate} disabled={generating}>
            {generating ? "Generando..." : "Generar token de verificación"}
          </Button>
        ) : (
          <p className="text-xs text-slate-500">
            Conecta un número para generar su token de verificación.
          </p>
        ))}
    </div>
  );
}
