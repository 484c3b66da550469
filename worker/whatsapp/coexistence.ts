/**
 * A number shared with the WhatsApp Business app and with Meta's own AI (contract section 16):
 * what the owner sends from the phone and what Meta's AI sends (echoes), who holds each
 * customer's thread (handovers), the phone's address book, and Meta disconnecting the number.
 */
import type { Deps } from "../http/deps";
import type { RealtimeEvent } from "../realtime/contract";
import type {
  AccountUpdatePayload,
  ArrivedEcho,
  Connection,
  HandoverPayload,
  StateSyncPayload,
} from "./ingest";

// TODO(#33): implemented in this session's coexistence slice.
const pending = (what: string): never => {
  throw new Error(`${what}: not built yet`);
};

export async function applyAccountUpdate(
  _deps: Deps,
  _organizationId: string,
  _update: AccountUpdatePayload,
): Promise<void> {
  pending("account_update");
}

export async function applyPhoneContacts(
  _deps: Deps,
  _organizationId: string,
  contacts: StateSyncPayload[],
): Promise<RealtimeEvent[]> {
  if (contacts.length === 0) return [];
  return pending("smb_app_state_sync");
}

export async function ingestEchoes(
  _deps: Deps,
  _connection: Connection,
  echoes: ArrivedEcho[],
): Promise<RealtimeEvent[]> {
  if (echoes.length === 0) return [];
  return pending("message echoes");
}

export async function applyHandovers(
  _deps: Deps,
  _organizationId: string,
  handovers: HandoverPayload[],
): Promise<RealtimeEvent[]> {
  if (handovers.length === 0) return [];
  return pending("messaging_handovers");
}
