/**
 * The AI agent's booking Flow (contract section 18, "The AI agent acts"; decisions 0109 and
 * 0112), for an agent with `can_book`: it sends this conversation's customer the Flow, or the
 * list of the next free slots where the Flow is not available, as a person's send would.
 */
import { defineTool } from "../ai/tools";
import { bookingFlowSendInput } from "../../contracts/flows";
import { sendBookingFlow } from "./sending";

export const sendBookingFlowTool = defineTool({
  definition: {
    type: "function",
    function: {
      name: "send_booking_flow",
      description:
        "Envía al cliente el formulario de reserva de WhatsApp (o la lista de los próximos horarios libres) para que elija servicio, día y hora él mismo.",
      parameters: {
        type: "object",
        properties: {
          service_id: {
            type: "string",
            description: "Id del servicio, si el cliente ya lo eligió (opcional)",
          },
        },
      },
    },
  },
  acts: true,
  allowedFor: (agent) => agent.canBook,
  arguments: bookingFlowSendInput,
  async run(context, args) {
    const sent = await sendBookingFlow(
      context.deps,
      {
        organizationId: context.organizationId,
        agentId: context.agentId,
        conversationId: context.conversationId,
      },
      { conversationId: context.conversationId, serviceId: args.service_id },
    );
    context.sentMessageIds.push(sent.message_id);
    return { sent: sent.kind === "flow" ? "booking_form" : "slot_list" };
  },
});
