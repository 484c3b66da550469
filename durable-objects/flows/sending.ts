/**
 * `POST /conversations/{id}/booking-flow` (contract section 18): a person sends the customer the
 * booking Flow, as an interactive `flow` message with a single-use token; where the Flow is not
 * available (not published, or published for another number) the same call sends a list of the
 * next ten free slots (decision 0098), each row's id naming a single-use token of this
 * conversation, so that the customer's `list_reply` books the one chosen (durable-objects/flows/replies.ts).
 */
import { and, asc, eq } from "drizzle-orm";
import { conversationNotFound, findConversation } from "../conversations/find";
import { services } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, fieldError } from "../../worker/http/errors";
import { authorOf, isAgent, type AgentActor } from "../bookings/service";
import { readBookingSettings } from "../bookings/settings";
import { serviceNotFound, type ServiceRow } from "../bookings/services";
import { systemNote } from "../team-inbox/notes-service";
import { requireSender, sendOutbound } from "../whatsapp/sender";
import {
  FLOW_CTA,
  LIST_BUTTON,
  LIST_REPLY_PREFIX,
  LIST_SLOTS,
  type BookingFlowSent,
} from "../../contracts/flows";
import { availableFlow } from "./registration";
import { upcomingSlots } from "./screens";
import { issueToken } from "./tokens";
import { zonedFormat } from "../../contracts/zoned-time";

const FLOW_BODY = "Elige el servicio, el día y la hora de tu cita.";
const LIST_BODY = "Estos son los próximos horarios libres. Elige uno y te lo reservamos.";
const NO_SLOTS = "No hay horarios libres en los próximos 14 días para ofrecer al cliente.";

/** "jue, 3 dic, 10:00": a list row's title (WhatsApp allows 24 characters). */
const rowTitle = (iso: string, timeZone: string) =>
  zonedFormat("es-ES", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(Date.parse(iso))
    .slice(0, 24);

/** The list row a slot was offered as: `<service id>@<start>`, kept with the token. */
export const offeredSlot = (serviceId: string, start: string) => `${serviceId}@${start}`;

/** The services offered: the one asked for (active), or every active one. */
async function servicesToOffer(deps: StoreDeps, organizationId: string, serviceId?: string) {
  const rows = await deps.orgDb
    .select()
    .from(services)
    .where(
      and(
        eq(services.organizationId, organizationId),
        serviceId ? eq(services.id, serviceId) : undefined,
      ),
    )
    .orderBy(asc(services.id));
  if (serviceId) {
    // Another organization's service is not found, as anywhere else.
    if (!rows[0]) throw serviceNotFound();
    if (!rows[0].active) throw fieldError("service_id", "Este servicio no está activo");
  }
  return rows.filter((row) => row.active);
}

/** The next free slots across the services, earliest first (at most `LIST_SLOTS`). */
async function nextSlots(deps: StoreDeps, organizationId: string, offered: ServiceRow[]) {
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  const all = [];
  for (const service of offered) {
    const slots = await upcomingSlots(deps, organizationId, service, settings);
    all.push(...slots.slice(0, LIST_SLOTS).map((slot) => ({ service, start: slot.start })));
  }
  all.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return { slots: all.slice(0, LIST_SLOTS), timeZone: settings.hours?.timeZone ?? "UTC" };
}

/**
 * The customer's own ask, by a booking reminder's "Cambiar" (decision 0122): sent as the
 * reminder was, by nobody of the team.
 */
export interface ReminderAsk {
  organizationId: string;
  reminderOf: string;
}

/** Who a Flow or list sent for `sender` is from. */
const flowAuthor = (sender: Member | AgentActor | ReminderAsk) =>
  "reminderOf" in sender ? { senderType: "reminder" as const, userId: null } : authorOf(sender);

/**
 * Sends the Flow, or the list, for a member or for the conversation's AI agent (decision 0112):
 * the AI's goes as its replies do, in its own conversation only, with a line in the thread.
 */
export async function sendBookingFlow(
  deps: StoreDeps,
  sender: Member | AgentActor | ReminderAsk,
  { conversationId, serviceId }: { conversationId: string; serviceId?: string },
): Promise<BookingFlowSent> {
  const { organizationId } = sender;
  const byAi = isAgent(sender);
  if (byAi && conversationId !== sender.conversationId) {
    throw conversationNotFound();
  }
  const conversation = await findConversation(deps.orgDb, organizationId, conversationId);
  const offered = await servicesToOffer(deps, organizationId, serviceId);
  if (offered.length === 0) {
    throw fieldError("service_id", "No hay ningún servicio activo que reservar");
  }
  const connected = await requireSender(deps, organizationId);
  const { senderType, userId } = flowAuthor(sender);
  const replaces = "reminderOf" in sender ? sender.reminderOf : null;
  const author = { senderType, senderUserId: userId };
  const flowId = await availableFlow(deps, organizationId, connected.connection.phoneNumberId);
  const told = async (line: string) => {
    if (byAi) await systemNote(deps, organizationId, conversation.id, line);
  };

  if (flowId) {
    const token = await issueToken(deps.orgDb, {
      organizationId,
      conversationId: conversation.id,
      kind: "flow",
      offered: serviceId ? [serviceId] : null,
      createdBy: userId,
      replacesBookingId: replaces,
    });
    const message = await sendOutbound(
      deps,
      conversation,
      {
        ...author,
        type: "interactive",
        content: `📅 Formulario de reserva enviado («${FLOW_CTA}»)`,
        part: {
          type: "flow",
          body: { text: FLOW_BODY },
          action: {
            name: "flow",
            parameters: {
              flow_message_version: "3",
              flow_token: token,
              flow_id: flowId,
              flow_cta: FLOW_CTA,
              flow_action: "data_exchange",
            },
          },
        },
      },
      { sender: connected },
    );
    await told("La IA envió el formulario de reserva.");
    return { kind: "flow", message_id: message.id };
  }

  const { slots, timeZone } = await nextSlots(deps, organizationId, offered);
  if (slots.length === 0) throw new AppError(422, "no_slots", NO_SLOTS);
  const token = await issueToken(deps.orgDb, {
    organizationId,
    conversationId: conversation.id,
    kind: "list",
    offered: slots.map((slot) => offeredSlot(slot.service.id, slot.start)),
    createdBy: userId,
    replacesBookingId: replaces,
  });
  const rows = slots.map((slot, index) => ({
    id: `${LIST_REPLY_PREFIX}${token}:${index}`,
    title: rowTitle(slot.start, timeZone),
    description: slot.service.name.slice(0, 72),
  }));
  const message = await sendOutbound(
    deps,
    conversation,
    {
      ...author,
      type: "interactive",
      content: `📅 Horarios libres enviados: ${rows.map((row) => row.title).join("; ")}`,
      part: {
        type: "list",
        header: { type: "text", text: FLOW_CTA },
        body: { text: LIST_BODY },
        action: {
          button: LIST_BUTTON,
          sections: [{ title: "Próximos horarios", rows }],
        },
      },
    },
    { sender: connected },
  );
  await told("La IA envió la lista de los próximos horarios libres.");
  return { kind: "list", message_id: message.id };
}
