/**
 * The AI agent's payment links (contract section 18, "The AI agent acts"; decisions 0109 and
 * 0112), for an agent with `can_book` and `can_charge`. The model never names an amount: the
 * link asks what the organization's data says the service costs ahead (its deposit, or its
 * price when paid in full), in the organization's currency, and a booking's link is bound to
 * that booking, so the same checks as a person's link hold (`createPaymentLink`).
 */
import { and, eq } from "drizzle-orm";
import { z } from "zod/mini";
import { defineTool, type ToolContext } from "../ai/tools";
import { bookingNotFound } from "../bookings/service";
import { findService, type ServiceRow } from "../bookings/services";
import { bookings } from "../schema";
import { AppError, fieldError } from "../../worker/http/errors";
import { paymentLinkInput } from "../../contracts/payments";
import { sendPaymentLink } from "./service";

/** What the service is paid ahead with, or a refusal the model reads. */
function askedFor(service: ServiceRow) {
  const asked =
    service.payment === "deposit"
      ? service.deposit
      : service.payment === "full"
        ? service.price
        : null;
  if (!asked) {
    throw new AppError(
      422,
      "nothing_to_charge",
      `${service.name} no se paga por adelantado: no se puede enviar un enlace de pago.`,
    );
  }
  return asked;
}

/** The service a link is for, and the booking it binds, found only in this conversation. */
async function chargedFor(
  context: ToolContext,
  args: { booking_id?: string; service_id?: string },
) {
  const { orgDb } = context.deps;
  if (!args.booking_id) {
    const service = await findService(orgDb, context.organizationId, args.service_id!);
    if (!service.active) throw fieldError("service_id", "Este servicio no está activo");
    return { service, bookingId: undefined };
  }
  const [booking] = await orgDb
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.id, args.booking_id),
        eq(bookings.organizationId, context.organizationId),
        eq(bookings.conversationId, context.conversationId),
      ),
    );
  if (!booking) throw bookingNotFound();
  if (!booking.serviceId) {
    throw fieldError("booking_id", "El servicio de esa cita ya no indica qué cobrar");
  }
  return {
    service: await findService(orgDb, context.organizationId, booking.serviceId),
    bookingId: booking.id,
  };
}

export const createPaymentLinkTool = defineTool({
  definition: {
    type: "function",
    function: {
      name: "create_payment_link",
      description:
        "Envía al cliente un enlace de pago («Pagar») de lo que el servicio cobra por adelantado (la señal o el precio, fijado por el negocio). Con booking_id, el pago de esa cita pendiente de pago; si no, de un servicio.",
      parameters: {
        type: "object",
        properties: {
          booking_id: { type: "string", description: "Id de la cita que se paga (de my_bookings)" },
          service_id: { type: "string", description: "Id del servicio, si no hay cita" },
        },
      },
    },
  },
  acts: true,
  allowedFor: (agent) => agent.canBook && agent.canCharge,
  // The amount, currency and description are never the model's: other fields are dropped.
  arguments: z
    .object({
      booking_id: z.optional(
        z.string().check(z.trim(), z.minLength(1, "La cita es obligatoria"), z.maxLength(100)),
      ),
      service_id: z.optional(
        z.string().check(z.trim(), z.minLength(1, "El servicio es obligatorio"), z.maxLength(100)),
      ),
    })
    .check(
      z.refine((args) => args.booking_id || args.service_id, {
        message: "Indica la cita (booking_id) o el servicio (service_id)",
        path: ["booking_id"],
      }),
    ),
  async run(context, args) {
    const { service, bookingId } = await chargedFor(context, args);
    const { payment, messageId } = await sendPaymentLink(
      context.deps,
      {
        organizationId: context.organizationId,
        agentId: context.agentId,
        conversationId: context.conversationId,
      },
      {
        id: context.conversationId,
        link: paymentLinkInput.parse({
          amount: askedFor(service),
          currency: service.currency,
          description: service.name,
          booking_id: bookingId,
        }),
        idempotencyKey: null,
      },
    );
    if (messageId) context.sentMessageIds.push(messageId);
    return {
      payment_link_sent: {
        amount: payment.amount,
        currency: payment.currency,
        description: payment.description,
        expires_at: payment.expires_at,
        ...(payment.booking_id && { booking_id: payment.booking_id }),
      },
    };
  },
});
