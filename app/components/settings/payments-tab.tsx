import { BookingFlowSection } from "./booking-flow-section";
import { useLoadFailureToast, type ConnectionTabs } from "./data";
import { LOAD_ERROR, LoadFailure } from "./load-failure";
import { PaymentsSection } from "./payments-section";

/** Configuración → Agenda y cobros: the payment provider and the booking Flow (section 18). */
export function PaymentsTab({ loaded }: { loaded: ConnectionTabs["payments"] }) {
  useLoadFailureToast(loaded, LOAD_ERROR);
  if (!loaded.ok) return <LoadFailure message={loaded.error} />;
  const { integration, maxPaymentAmount, flow, numberConnected } = loaded.data;
  return (
    <div id="payments-tab" className="space-y-6">
      <PaymentsSection integration={integration} maxPaymentAmount={maxPaymentAmount} />
      <BookingFlowSection flow={flow} numberConnected={numberConnected} />
    </div>
  );
}
