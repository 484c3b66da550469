import type { useConnectionActions } from "./use-connection-actions";
import { Button } from "~/components/ui/button";
import type { ConnectionStatus } from "./status-badge";
import { StatusSection } from "../status-section";
import { Icon } from "~/components/ui/icon";

interface ServiceCardProps {
  title: string;
  description: string;
  status: ConnectionStatus;
  icon: React.ReactNode;
  children: React.ReactNode;
}

/** A connected service (WhatsApp Business, Meta Pixel), its body filling the card's height. */
export function ServiceCard({ children, ...heading }: ServiceCardProps) {
  return (
    <StatusSection {...heading} className="flex flex-col">
      <div className="mt-5 flex flex-1 flex-col gap-5">{children}</div>
    </StatusSection>
  );
}

/** Label/value pairs of a connection. */
export function Details({ items }: { items: readonly { label: string; value: string }[] }) {
  return (
    <dl className="grid gap-x-4 gap-y-3 text-sm sm:grid-cols-2">
      {items.map((item) => (
        <div key={item.label} className="min-w-0">
          <dt className="text-slate-500">{item.label}</dt>
          <dd className="mt-0.5 break-all font-medium text-slate-900">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The last test's outcome, kept on the card (the toast goes away). */
export function TestOutcome({ result }: { result: { ok: boolean; text: string } | null }) {
  if (!result) return null;
  return (
    <p
      role="status"
      className={`rounded-lg px-3 py-2 text-sm ${
        result.ok ? "bg-emerald-50 text-emerald-800" : "bg-red-50 text-red-800"
      }`}
    >
      <span className="font-medium">{result.ok ? "Prueba correcta: " : "Prueba fallida: "}</span>
      {result.text}
    </p>
  );
}

export const WHATSAPP_ICON = (
  <Icon
    path="M4 20l1.3-3.9A8 8 0 1 1 8 19l-4 1z M9 9.5c0 3 2.5 5.5 5.5 5.5l1-1.5-2-1-1 .8a4 4 0 0 1-1.8-1.8l.8-1-1-2L9 9.5z"
    strokeWidth={1.8}
  />
);

export const PIXEL_ICON = <Icon path="M4 20V10M10 20V4M16 20v-7M22 20H2" strokeWidth={1.8} />;

/** 'Probar' and, for owners and admins, 'Desconectar'; a card's own buttons go in between. */
export function ConnectionButtons({
  actions,
  connecting,
  canManage,
  children,
}: {
  actions: Pick<
    ReturnType<typeof useConnectionActions>,
    "test" | "testing" | "disconnecting" | "setConfirming"
  >;
  connecting: boolean;
  canManage: boolean;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-3">
      <Button variant="secondary" onClick={actions.test} disabled={actions.testing || connecting}>
        {actions.testing ? "Probando..." : "Probar"}
      </Button>
      {children}
      {canManage && (
        <Button
          variant="secondary"
          className="border-red-200! text-red-700! hover:bg-red-50!"
          onClick={() => actions.setConfirming(true)}
          disabled={actions.disconnecting || connecting}
        >
          Desconectar
        </Button>
      )}
    </div>
  );
}
