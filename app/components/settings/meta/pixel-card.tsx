import { useState } from "react";
import { toastDone, toastFailed } from "~/lib/outcome";
import { Button } from "~/components/ui/button";
import type { MetaTabData } from "~/components/settings/data";
import { client, data, errorMessage } from "~/lib/api";
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
  /** Reads the pixel again after a change. */
  onChanged: () => Promise<void>;
}

export function PixelCard({
  config,
  canManage,
  connecting,
  loginAvailable,
  onChanged,
}: PixelCardProps) {
  const actions = useConnectionActions({
    service: "Meta Pixel",
    check: () => data(client["meta-config"].test.$post()),
    remove: () => data(client["meta-config"].$delete()),
    describeSuccess: (result) => ({
      text: result.pixel_name
        ? `El pixel «${result.pixel_name}» responde correctamente.`
        : "El pixel responde correctamente.",
      detail: result.pixel_name,
    }),
    onDisconnected: onChanged,
  });
  const [sendingTest, setSendingTest] = useState(false);

  const connected = config !== null && config.status !== "disconnected";
  const status = connecting ? "connecting" : toConnectionStatus(config?.status);

  /** A test Lead, visible in Events Manager's Test Events tab under the organization's code. */
  async function sendTestEvent() {
    setSendingTest(true);
    try {
      const result = await data(client["meta-config"]["test-conversions"].$post());
      if (result.success) {
        const text = `Meta recibió el evento de prueba. Búscalo en «Probar eventos» del Administrador de eventos con el código ${result.test_event_code}.`;
        actions.setOutcome({ ok: true, text });
        toastDone("Evento de prueba enviado a Meta");
      } else {
        const text = result.error || "Meta no aceptó el evento de prueba";
        actions.setOutcome({ ok: false, text });
        toastFailed("Error al enviar el evento de prueba", text);
      }
    } catch (error) {
      actions.setOutcome({ ok: false, text: errorMessage(error) });
      toastFailed("Error al enviar el evento de prueba", error);
    } finally {
      setSendingTest(false);
    }
  }

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
                onClick={sendTestEvent}
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
