/**
 * The customer's answers to what `sending.ts` sent, as a delivery stores them (in the store,
 * inside the delivery's transaction; only messages stored just now, so a redelivery does
 * nothing again):
 * - a `list_reply` whose id is `cita:<token>:<index>` books the slot offered in that row, when
 *   the token is this conversation's, unused and younger than 24 h (decision 0098);
 * - an `nfm_reply` (the Flow completed; the booking was made at its CONFIRM) marks its token
 *   completed and changes nothing else: its readable line is the thread's.
 */
import { and, eq, isNull } from "drizzle-orm";
import { createBooking } from "../bookings/service";
import { flowTokens } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { systemNote } from "../team-inbox/notes-service";
import type { InboundMessage } from "../whatsapp/inbound-content";
import { LIST_REPLY_PREFIX } from "../../contracts/flows";
import { liveToken, markUsed } from "./tokens";
import { replaceRescheduled } from "../reminders/rescheduled";

/** A customer's answer to a booking list or Flow, stored in a conversation. */
export interface BookingReply {
  conversationId: string;
  message: InboundMessage;
}

/** Whether a message is an answer this module acts on. */
export const isBookingReply = (message: InboundMessage) =>
  message.type === "interactive" &&
  (message.interactive?.nfm_reply !== undefined ||
    message.interactive?.list_reply?.id?.startsWith(LIST_REPLY_PREFIX) === true);

const LIST_EXPIRED =
  "El cliente eligió un horario de una lista que ya no es válida (caducada o ya usada): no se reservó nada.";

/** The token named by a Flow's completion (`response_json.flow_token`), if readable. */
function completionToken(message: InboundMessage) {
  try {
    const response = JSON.parse(message.interactive?.nfm_reply?.response_json ?? "") as unknown;
    const token = (response as { flow_token?: unknown } | null)?.flow_token;
    return typeof token === "string" ? token : null;
  } catch {
    return null;
  }
}

async function bookFromList(deps: StoreDeps, organizationId: string, reply: BookingReply) {
  const id = reply.message.interactive!.list_reply!.id!.slice(LIST_REPLY_PREFIX.length);
  const match = /^(.+):(\d{1,2})$/.exec(id);
  const row = match && (await liveToken(deps.orgDb, organizationId, match[1]!, "list"));
  const chosen = row && row.conversationId === reply.conversationId && row.offered?.[+match[2]!];
  if (!row || !chosen) {
    await systemNote(deps, organizationId, reply.conversationId, LIST_EXPIRED);
    return;
  }
  const [serviceId, start] = chosen.split("@") as [string, string];
  try {
    const booking = await createBooking(
      deps,
      { organizationId },
      {
        booking: {
          service_id: serviceId,
          start,
          conversation_id: reply.conversationId,
          note: null,
        },
        idempotencyKey: `list:${row.token}`,
      },
    );
    await markUsed(deps.orgDb, row.token, booking.id);
    await replaceRescheduled(deps, organizationId, row, booking.id);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    await systemNote(
      deps,
      organizationId,
      reply.conversationId,
      `El cliente eligió un horario de la lista, pero no se pudo reservar: ${error.message}`,
    );
  }
}

async function completeFlow(deps: StoreDeps, organizationId: string, reply: BookingReply) {
  const token = completionToken(reply.message);
  if (!token) return;
  await deps.orgDb
    .update(flowTokens)
    .set({ completedAt: new Date().toISOString() })
    .where(
      and(
        eq(flowTokens.token, token),
        eq(flowTokens.organizationId, organizationId),
        eq(flowTokens.conversationId, reply.conversationId),
        isNull(flowTokens.completedAt),
      ),
    );
}

/** Acts on the booking answers a delivery just stored, in the delivery's order. */
export async function applyBookingReplies(
  deps: StoreDeps,
  organizationId: string,
  replies: BookingReply[],
) {
  for (const reply of replies) {
    if (reply.message.interactive?.nfm_reply) await completeFlow(deps, organizationId, reply);
    else await bookFromList(deps, organizationId, reply);
  }
}
