import { Button } from "~/components/ui/button";
import { useSettingsChange } from "~/components/settings/actions";
import { CopyableValue } from "./copy-button";
import { useOrigin } from "./use-origin";

interface WebhookSectionProps {
  /** The organization's verification token, if one was generated. */
  token: string | null;
  /** Tokens belong to a connection: without a number there is nothing to generate. */
  connected: boolean;
  canManage: boolean;
}

/** The webhook URL and verification token a business enters in its own Meta app. */
export function WebhookSection({ token, connected, canManage }: WebhookSectionProps) {
  const origin = useOrigin();
  // The route's action makes it; the router reads the connection (and its token) again.
  const generator = useSettingsChange();
  const generating = generator.busy;
  const generate = () => void generator.submit({ intent: "webhook-token.generate" });

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
