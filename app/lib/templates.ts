import { useCallback, useEffect, useState } from "react";
import type { WhatsappTemplate } from "../../contracts/whatsapp";
import { client, data, errorMessage } from "./api";

/** A template's value in a select: its name and language, which name it at Meta. */
export const templateKey = (t: Pick<WhatsappTemplate, "name" | "language">) =>
  `${t.name}|${t.language}`;

/** Only templates Meta approved can be sent. */
export const isApprovedTemplate = (t: WhatsappTemplate) => t.status.toUpperCase() === "APPROVED";

export type TemplatesRead =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "ready"; templates: WhatsappTemplate[] };

/**
 * The account's message templates (Meta's list, which the API refreshes), read when the part
 * that offers them appears: the composer's picker, the Agenda's reminder choice. Not with the
 * screen's loader, which reads again on every navigation and change while the templates change
 * only at Meta (decision 0157).
 */
export function useTemplates() {
  const [read, setRead] = useState<TemplatesRead>({ state: "loading" });
  const load = useCallback(() => {
    setRead({ state: "loading" });
    data(client["whatsapp-config"].templates.$get()).then(
      ({ templates }) => setRead({ state: "ready", templates }),
      (error) => setRead({ state: "error", message: errorMessage(error) }),
    );
  }, []);
  useEffect(load, [load]);
  return { read, reload: load };
}
