/**
 * The WhatsApp Business app's chat history (contract section 16): held at once when Meta
 * delivers it, imported by the organization's store in the background.
 */
import type { Deps } from "../http/deps";
import type { HistoryPayload } from "./ingest";

// TODO(#33): implemented in this session's history slice.
export async function holdHistory(
  _deps: Deps,
  _organizationId: string,
  _history: HistoryPayload[],
): Promise<boolean> {
  throw new Error("history: not built yet");
}
