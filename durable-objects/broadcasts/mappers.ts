/** A broadcast and its recipients as the API answers them. */
import type { broadcastRecipients, broadcasts } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import type { Broadcast, BroadcastRecipient, BroadcastStats } from "../../contracts/broadcasts";
import { statsOf } from "./results";

export type BroadcastRow = typeof broadcasts.$inferSelect;
export type RecipientRow = typeof broadcastRecipients.$inferSelect;

export const toBroadcast = (row: BroadcastRow, stats: BroadcastStats): Broadcast => ({
  id: row.id,
  name: row.name,
  status: row.status,
  template: {
    name: row.templateName,
    language: row.templateLanguage,
    category: row.templateCategory,
    parameters: row.templateParameters,
  },
  audience: row.audience,
  send_at: row.sendAt,
  created_by: row.createdBy,
  started_at: row.startedAt,
  completed_at: row.completedAt,
  fell_back_at: row.fellBackAt,
  waiting:
    row.status === "sending" && row.waitReason && row.waitUntil
      ? { reason: row.waitReason, until: row.waitUntil }
      : null,
  pause_reason: row.status === "paused" ? row.pauseReason : null,
  stats,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** Broadcasts with their results, read together (one set of grouped queries for all). */
export async function withResults(deps: StoreDeps, organizationId: string, rows: BroadcastRow[]) {
  const stats = await statsOf(
    deps,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toBroadcast(row, stats.get(row.id)!));
}

export const toRecipient = (
  row: RecipientRow,
  customer: { name: string | null; phoneNumber: string | null },
): BroadcastRecipient => ({
  conversation_id: row.conversationId,
  customer_name: customer.name,
  phone_number: customer.phoneNumber,
  state: row.state,
  error_code: row.errorCode,
  error: row.error,
  sent_at: row.sentAt,
  delivered_at: row.deliveredAt,
  read_at: row.readAt,
  replied_at: row.repliedAt,
  cost: row.cost,
});
