import { live } from "~/lib/live-store";
import { useLiveVersion } from "~/lib/use-live";
import { BookingFlowSection } from "./booking-flow-section";
import { useLoadFailureToast, type ConnectionTabs } from "./data";
import { LOAD_ERROR, LoadFailure } from "./load-failure";
import { PaymentsSection } from "./payments-section";

/** Configuración → Agenda y cobros: the payment provider and the booking Flow (section 18). */
export function PaymentsTab({ loaded }: { loaded: ConnectionTabs["payments"] }) {
  useLoadFailureToast(loaded, LOAD_ERROR);
  // Meta disconnected or reconnected the number (`whatsapp_status`): the Flow's state follows
  // the status the live store recorded after the tab's read, as the Meta tab does.
  useLiveVersion();
  if (!loaded.ok) return <LoadFailure message={loaded.error} />;
  const { integration, maxPaymentAmount, flow, asked } = loaded.data;
  const announced = live.whatsappStatusSince(asked);
  const numberConnected = announced
    ? announced.status === "connected"
    : loaded.data.numberConnected;
  return (
    <div id="payments-tab" className="space-y-6">
      <PaymentsSection integration={integration} maxPaymentAmount={maxPaymentAmount} />
      <BookingFlowSection flow={flow} numberConnected={numberConnected} />
    </div>
  );
}
