import { useState } from "react";
import { toastDone, toastFailed } from "~/lib/outcome";
import { errorMessage } from "~/lib/api";

/** What a card shows under its buttons after a check. */
export interface Outcome {
  ok: boolean;
  text: string;
}

interface ConnectionActionsOptions<Result> {
  /** The service as the texts name it: "WhatsApp", "Meta Pixel". */
  service: string;
  /** Its API calls: the check, and the disconnection. */
  check: () => Promise<Result>;
  remove: () => Promise<unknown>;
  /** The sentence shown when the check passed, and the detail of its toast. */
  describeSuccess: (result: Result) => { text: string; detail?: string };
  onDisconnected: () => Promise<void>;
}

/** The check and disconnection shared by the Meta Business cards, with their toasts. */
export function useConnectionActions<Result extends { success: boolean; error?: string }>({
  service,
  check,
  remove,
  describeSuccess,
  onDisconnected,
}: ConnectionActionsOptions<Result>) {
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);

  async function test() {
    setTesting(true);
    try {
      const result = await check();
      if (result.success) {
        const { text, detail } = describeSuccess(result);
        setOutcome({ ok: true, text });
        toastDone(`Conexión con ${service} verificada`, { description: detail });
      } else {
        const text = result.error || `Error al probar ${service}`;
        setOutcome({ ok: false, text });
        toastFailed(`Error al probar ${service}`, text);
      }
    } catch (error) {
      setOutcome({ ok: false, text: errorMessage(error) });
      toastFailed(`Error al probar ${service}`, error);
    } finally {
      setTesting(false);
    }
  }

  async function disconnect() {
    setDisconnecting(true);
    try {
      await remove();
      setConfirming(false);
      setOutcome(null);
      toastDone(`${service} desconectado`);
      await onDisconnected();
    } catch (error) {
      toastFailed(`Error al desconectar ${service}`, error);
    } finally {
      setDisconnecting(false);
    }
  }

  return {
    testing,
    test,
    outcome,
    setOutcome,
    confirming,
    setConfirming,
    disconnecting,
    disconnect,
  };
}
