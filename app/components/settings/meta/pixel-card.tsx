import { Button } from "~/components/ui/button";
import { useSettingsChange } from "~/components/settings/actions";
import type { MetaTabData } from "~/components/settings/data";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { ConnectionButtons, Details, PIXEL_ICON, ServiceCard, TestOutcome } from "./service-card";
import { toConnectionStatus } from "./status-badge";
import { useConnectionActions } from "./use-connection-actions";

interface PixelCardProps {
  config: MetaTabData["pixel"];
  canManage: boolean;
  /** A Facebook Login is under way (the card reads 'Conectando'). */
  connecting: boolean;
  /** Facebook Login is available on this server. */
  loginAvailable: boolean;
}

export function PixelCard({ config, canManage, connecting, loginAvailable }: PixelCardProps) {
  const actions = useConnectionActions("pixel");
  // A test Lead, sent by the route's action; how it went is kept on the card like a check.
  const testEvent = useSettingsChange((result) => {
    if (result.ok && result.check) actions.setOutcome(result.check);
  });
  const sendingTest = testEvent.busy;

  const connected = config !== null && config.status !== "disconnected";
  const status = connecting ? "connecting" : toConnectionStatus(config?.status);

  return (
    <ServiceCard
      title="Meta Pixel"
      description="Envía a Meta las conversiones de tus anuncios para medirlas y optimizarlas."
      status={status}
      icon={PIXEL_ICON}
    >
      {connected && config ? (
        <>
          <Details
            items={[
              { label: "ID del pixel", value: config.pixel_id },
              ...(config.ad_account_id
                ? [{ label: "Cuenta publicitaria", value: config.ad_account_id }]
                : []),
            ]}
          />
          <TestOutcome result={actions.outcome} />
          <ConnectionButtons actions={actions} connecting={connecting} canManage={canManage}>
            {canManage && (
              <Button
                variant="secondary"
                onClick={() => void testEvent.submit({ intent: "pixel.test-event" })}
                disabled={sendingTest || connecting}
              >
                {sendingTest ? "Enviando..." : "Enviar evento de prueba"}
              </Button>
            )}
          </ConnectionButtons>
        </>
      ) : (
        <p className="text-sm text-slate-600">
          {loginAvailable
            ? "No hay ningún pixel conectado. Se conecta junto con WhatsApp al pulsar «Conectar con Meta Business» (se usa el primer pixel de tu cuenta publicitaria)."
            : "No hay ningún pixel conectado. Para conectarlo hace falta la app de Meta configurada en el servidor."}
        </p>
      )}
      <ConfirmDialog
        open={actions.confirming}
        title="¿Desconectar Meta Pixel?"
        description="Las conversiones dejarán de enviarse a Meta hasta que lo vuelvas a conectar. Las registradas en Atiende se conservan."
        confirmLabel="Desconectar"
        busy={actions.disconnecting}
        onConfirm={actions.disconnect}
        onClose={() => actions.setConfirming(false)}
      />
    </ServiceCard>
  );
}
