import type { HistoryImport } from "../../../../contracts/whatsapp";
import { SelectField } from "~/components/ui/field";
import type { MetaTabData } from "~/components/settings/data";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { useSettingsChange } from "~/components/settings/actions";
import { CoexistenceSection } from "./coexistence-section";
import { ManualConnectForm } from "./manual-connect-form";
import { useConnectionActions } from "./use-connection-actions";
import {
  ConnectionButtons,
  Details,
  ServiceCard,
  TestOutcome,
  WHATSAPP_ICON,
} from "./service-card";
import { toConnectionStatus } from "./status-badge";
import { WebhookSection } from "./webhook-section";

interface WhatsappCardProps {
  config: MetaTabData["whatsapp"];
  /** A shared number's history import, as far as the reads and events took it. */
  historyImport: HistoryImport | null;
  agents: readonly Agent[];
  canManage: boolean;
  /** A Facebook Login is under way (the card reads 'Conectando'). */
  connecting: boolean;
  /** Facebook Login is not available: the manual form opens by itself. */
  manualFirst: boolean;
}

type Agent = Extract<MetaTabData["agents"], { ok: true }>["data"][number];

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString("es-ES", { dateStyle: "medium", timeStyle: "short" });

export function WhatsappCard({
  config,
  historyImport,
  agents,
  canManage,
  connecting,
  manualFirst,
}: WhatsappCardProps) {
  const actions = useConnectionActions("whatsapp");
  const connected = config !== null && config.status !== "disconnected";
  const status = connecting ? "connecting" : toConnectionStatus(config?.status);

  // The route's action saves it; the router reads the connection again.
  const agentSaver = useSettingsChange();
  const savingAgent = agentSaver.busy;
  const chooseAgent = (agentId: string) =>
    void agentSaver.submit({
      intent: "whatsapp.default-agent",
      agentId: agentId || null,
      agentName: agents.find((a) => a.id === agentId)?.name ?? null,
    });

  const agentOptions = agents.map((agent) => ({
    value: agent.id,
    label: agent.is_active ? agent.name : `${agent.name} (inactivo)`,
  }));
  if (config?.default_agent_id && !agents.some((a) => a.id === config.default_agent_id)) {
    agentOptions.push({ value: config.default_agent_id, label: "Agente no disponible" });
  }

  return (
    <ServiceCard
      title="WhatsApp Business"
      description="El número con el que tus agentes atienden a los clientes."
      status={status}
      icon={WHATSAPP_ICON}
    >
      {connected && config ? (
        <>
          <Details
            items={[
              { label: "Número", value: config.phone_number ?? "Sin número visible" },
              { label: "ID del número", value: config.phone_number_id },
              { label: "Cuenta de WhatsApp Business", value: config.business_account_id },
              ...(config.connected_at
                ? [{ label: "Conectado desde", value: formatDate(config.connected_at) }]
                : []),
            ]}
          />
          {config.coexistence && <CoexistenceSection historyImport={historyImport} />}
          <TestOutcome result={actions.outcome} />
          <ConnectionButtons actions={actions} connecting={connecting} canManage={canManage} />
          <div>
            <SelectField
              label="Agente por defecto"
              placeholder="Ninguno"
              options={agentOptions}
              value={config.default_agent_id ?? ""}
              onChange={(e) => chooseAgent(e.target.value)}
              disabled={!canManage || savingAgent}
            />
            <p className="mt-1 text-xs text-slate-500">
              {agents.length === 0
                ? "Crea un agente en «Agentes» para que responda automáticamente."
                : "El agente de IA que atiende las conversaciones nuevas de este número."}
            </p>
          </div>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            {config?.status === "disconnected"
              ? "El número está desconectado. Vuelve a conectarlo para recibir y enviar mensajes."
              : "No hay ningún número conectado. Conéctalo con Meta Business o manualmente."}
          </p>
          {config?.disconnected_reason && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
              Meta lo desconectó: {config.disconnected_reason}
            </p>
          )}
        </>
      )}
      <WebhookSection
        token={config?.webhook_token ?? null}
        connected={config !== null}
        canManage={canManage}
      />
      {canManage && (
        <ManualConnectForm
          defaultOpen={manualFirst && !connected}
          replacing={connected}
          onConnected={() => actions.setOutcome(null)}
        />
      )}
      <ConfirmDialog
        open={actions.confirming}
        title="¿Desconectar WhatsApp?"
        description="Atiende dejará de recibir y enviar mensajes de este número hasta que lo vuelvas a conectar. Las conversaciones guardadas se conservan."
        confirmLabel="Desconectar"
        busy={actions.disconnecting}
        onConfirm={actions.disconnect}
        onClose={() => actions.setConfirming(false)}
      />
    </ServiceCard>
  );
}
