import { useState } from "react";
import { useSettingsChange, type ConnectionCheck } from "~/components/settings/actions";

/**
 * The check and disconnection of a Meta Business card (WhatsApp, Meta Pixel), made by the
 * route's action with their toasts (settings-action.ts); the router reads the connection again
 * after a disconnection (a check changes nothing). The card keeps the last check's outcome and
 * the disconnection's confirmation.
 */
export function useConnectionActions(service: "whatsapp" | "pixel") {
  const [outcome, setOutcome] = useState<ConnectionCheck | null>(null);
  const [confirming, setConfirming] = useState(false);
  const tester = useSettingsChange((result) => {
    if (result.ok && result.check) setOutcome(result.check);
  });
  const disconnector = useSettingsChange((result) => {
    if (!result.ok) return;
    setConfirming(false);
    setOutcome(null);
  });

  return {
    testing: tester.busy,
    test: () => void tester.submit({ intent: `${service}.test` }),
    outcome,
    setOutcome,
    confirming,
    setConfirming,
    disconnecting: disconnector.busy,
    disconnect: () => void disconnector.submit({ intent: `${service}.disconnect` }),
  };
}
