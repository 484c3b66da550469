/**
 * Payment links (contract section 18, decisions 0091-0093): the provider an organization
 * connects, the links people send in a conversation as a "Pagar" button, and what a link's
 * payment does (its booking confirmed, one sale, one `Purchase` to Meta). Every change is
 * audited, told to the consoles (`payment_update`) and written in the thread.
 */
import { and, asc, desc, eq, inArray, lte } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import {
  authorOf,
  confirmPaidBooking,
  holdUntil,
  isAgent,
  type AgentActor,
} from "../bookings/service";
import { conversationNotFound, findConversation } from "../conversations/find";
import { assertWindowOpen, type ConversationRow } from "../conversations/mappers";
import { uuidv7 } from "../../worker/db/ids";
import { bookings, payments, services } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, fieldError, notFound } from "../../worker/http/errors";
import { organizationCurrency } from "../organizations/currency";
import { moveToStage } from "../sales/service";
import { systemNote } from "../team-inbox/notes-service";
import { recordConversationConversion } from "../tracking/service";
import { requireSender, sendOutbound } from "../whatsapp/sender";
import {
  LINK_MINUTES,
  PAY_BUTTON,
  type Payment,
  type PaymentIntegrationInput,
  type PaymentLinkInput,
  type PaymentStatus,
} from "../../contracts/payments";
import { createPreference, mercadoPagoUser } from "./mercadopago";
import { fitsCurrency, sameAmount, spokenAmount } from "./money";
import { PROVIDER_NAMES, ProviderError, type CheckoutRequest } from "./provider";
import {
  connectedProvider,
  readIntegration,
  readPaymentLimits,
  removeIntegration,
  saveIntegration,
  webhookUrl,
  type ConnectedProvider,
} from "./settings";
import { createCheckoutSession, stripeAccount } from "./stripe";

export type PaymentRow = typeof payments.$inferSelect;

const MINUTE_MS = 60_000;

export const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  conversation_id: row.conversationId,
  booking_id: row.bookingId,
  provider: row.provider,
  provider_ref: row.providerRef,
  amount: row.amount,
  currency: row.currency,
  description: row.description,
  status: row.status,
  url: row.url,
  expires_at: row.expiresAt,
  paid_at: row.paidAt,
  created_by: row.createdBy,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** A provider's refusal or failure said in Spanish; the provider's own words go in the log. */
function providerFailure(error: unknown, doing: string): never {
  if (!(error instanceof ProviderError)) throw error;
  console.warn("payment provider failed", error.message);
  const name = PROVIDER_NAMES[error.provider];
  throw new AppError(
    502,
    "payment_provider_error",
    `${name} no pudo ${doing}${error.refused ? ` (${error.providerMessage})` : ""}. Inténtalo de nuevo.`,
  );
}

// ---------------------------------------------------------------------------------------------
// The connection.

/** `GET /integrations/payments`: the provider and since when; null when none is connected. */
export const getIntegration = ({ env, orgDb }: StoreDeps, member: Member) =>
  readIntegration(env, orgDb, member.organizationId);

/**
 * `PUT /integrations/payments`: the key is checked with the provider first (Stripe's account,
 * Mercado Pago's user); a refused key is a Spanish 422 and keeps nothing.
 */
export async function connectIntegration(
  deps: StoreDeps,
  member: Member,
  input: PaymentIntegrationInput,
) {
  const name = PROVIDER_NAMES[input.provider];
  let accountId: string;
  try {
    ({ accountId } =
      input.provider === "stripe"
        ? await stripeAccount(deps.env, input.secret)
        : await mercadoPagoUser(deps.env, input.secret));
  } catch (error) {
    if (error instanceof ProviderError && (error.status === 401 || error.status === 403)) {
      throw new AppError(
        422,
        "invalid_payment_key",
        `${name} no aceptó la clave secreta: revísala y vuelve a intentarlo.`,
        [{ path: "secret", message: `${name} no aceptó esta clave` }],
      );
    }
    providerFailure(error, "comprobar la clave");
  }
  const integration = await saveIntegration(deps.env, deps.orgDb, member.organizationId, {
    provider: input.provider,
    secret: input.secret,
    webhookSecret: input.webhook_secret,
    accountId,
    connectedBy: member.userId,
  });
  // A settings change, audited as the others are (decision 0091).
  await recordAudit(deps.orgDb, {
    action: "organization.update",
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { fields: ["payments"], provider: input.provider, account_id: accountId },
    ip: member.ip,
  });
  return integration;
}

/** `DELETE /integrations/payments`: links already sent stay as they are. */
export async function disconnectIntegration(deps: StoreDeps, member: Member) {
  if (!(await removeIntegration(deps.orgDb, member.organizationId))) {
    throw notFound("No hay ningún proveedor de pagos conectado.");
  }
  await recordAudit(deps.orgDb, {
    action: "organization.update",
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { fields: ["payments"], provider: null },
    ip: member.ip,
  });
}

// ---------------------------------------------------------------------------------------------
// Reading.

/** `GET /conversations/{id}/payments`: the conversation's links, newest first. */
export async function listPayments({ orgDb }: StoreDeps, member: Member, { id }: { id: string }) {
  const conversation = await findConversation(orgDb, member.organizationId, id);
  const rows = await orgDb
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.organizationId, member.organizationId),
        eq(payments.conversationId, conversation.id),
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(100);
  return rows.map(toPayment);
}

// ---------------------------------------------------------------------------------------------
// Sending a link.

interface LinkRequest {
  id: string;
  link: PaymentLinkInput;
  idempotencyKey: string | null;
}

async function requestHash(id: string, input: PaymentLinkInput) {
  const asked = [id, Number(input.amount), input.currency, input.description, input.booking_id];
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(JSON.stringify(asked)),
  );
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const madeWith = async (deps: StoreDeps, organizationId: string, idempotencyKey: string | null) =>
  idempotencyKey === null
    ? undefined
    : (
        await deps.orgDb
          .select()
          .from(payments)
          .where(
            and(
              eq(payments.organizationId, organizationId),
              eq(payments.idempotencyKey, idempotencyKey),
            ),
          )
      )[0];

function sameRequest(earlier: PaymentRow, hash: string | null) {
  if (earlier.requestHash !== hash) {
    throw new AppError(
      422,
      "idempotency_key_reused",
      "Esta Idempotency-Key ya se usó para otro enlace de pago: usa una clave nueva.",
    );
  }
  return toPayment(earlier);
}

/**
 * What a link for a booking must ask (decision 0092): the booking is this conversation's and
 * held for its payment, and the amount and currency are what its service asks ahead (the
 * deposit, or the price when it is paid in full).
 */
async function checkBooking(
  deps: StoreDeps,
  conversation: ConversationRow,
  link: PaymentLinkInput & { booking_id: string },
) {
  const [booking] = await deps.orgDb
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.id, link.booking_id),
        eq(bookings.organizationId, conversation.organizationId),
        eq(bookings.conversationId, conversation.id),
      ),
    );
  if (!booking) throw fieldError("booking_id", "Esa cita no es de esta conversación");
  if (booking.status !== "pending_payment") {
    throw fieldError("booking_id", "Esa cita no está pendiente de pago");
  }
  const [service] = booking.serviceId
    ? await deps.orgDb.select().from(services).where(eq(services.id, booking.serviceId))
    : [];
  const asked = service?.payment === "deposit" ? service.deposit : service?.price;
  if (!service || !asked) {
    throw fieldError("booking_id", "El servicio de esa cita ya no indica qué cobrar");
  }
  if (!sameAmount(asked, link.amount) || service.currency !== link.currency) {
    throw fieldError(
      "amount",
      `La cita se paga con ${spokenAmount(asked, service.currency)} (${
        service.payment === "deposit" ? "la señal" : "el precio"
      } del servicio)`,
    );
  }
}

/**
 * Checks the link against the organization's own data, answering the connected provider: the
 * currency is the organization's, the amount fits it and its `max_payment_amount`, and a
 * booking's link asks what its service does.
 */
async function checkLink(deps: StoreDeps, conversation: ConversationRow, link: PaymentLinkInput) {
  const { organizationId } = conversation;
  const currency = await organizationCurrency(deps);
  if (link.currency !== currency) {
    throw fieldError("currency", `Los cobros de tu organización son en ${currency}`);
  }
  if (!fitsCurrency(link.amount, link.currency)) {
    throw fieldError("amount", `${link.currency} no admite tantos decimales`);
  }
  const { max_payment_amount: max } = await readPaymentLimits(deps.orgDb, organizationId);
  if (Number(link.amount) > max) {
    throw fieldError(
      "amount",
      `El importe máximo de un enlace es ${spokenAmount(String(max), currency)} (max_payment_amount)`,
    );
  }
  if (link.booking_id)
    await checkBooking(deps, conversation, { ...link, booking_id: link.booking_id });
  const connected = await connectedProvider(deps.env, deps.orgDb, organizationId);
  if (!connected) {
    throw new AppError(
      422,
      "payments_not_connected",
      "Conecta Stripe o Mercado Pago en Configuración para enviar enlaces de pago.",
    );
  }
  return connected;
}

const openCheckout = (deps: StoreDeps, connected: ConnectedProvider, request: CheckoutRequest) =>
  connected.provider === "stripe"
    ? createCheckoutSession(deps.env, connected.secret, request)
    : createPreference(deps.env, connected.secret, request);

/** The customer's message: the link's description, and its "Pagar" button. */
const payDelivery = (row: PaymentRow) => ({
  type: "interactive",
  part: {
    type: "cta_url",
    body: { text: `${row.description}: ${spokenAmount(row.amount, row.currency)}.` },
    action: { name: "cta_url", parameters: { display_text: PAY_BUTTON, url: row.url } },
  },
});

/**
 * `POST /conversations/{id}/payment-links`: checked, then the provider opens the checkout and
 * only then is the payment kept (`pending`), so a provider's failure keeps nothing and the same
 * `Idempotency-Key` can try again. The link goes to the customer as a "Pagar" button, from a
 * member or from the conversation's AI agent (decision 0112): the AI's goes as its replies do,
 * in its own conversation only, with a line in the thread.
 */
export const createPaymentLink = async (
  deps: StoreDeps,
  sender: Member | AgentActor,
  request: LinkRequest,
): Promise<Payment> => (await sendPaymentLink(deps, sender, request)).payment;

/** `createPaymentLink`, with the message that carried the link (none when it was sent before). */
export async function sendPaymentLink(
  deps: StoreDeps,
  sender: Member | AgentActor,
  { id, link, idempotencyKey }: LinkRequest,
): Promise<{ payment: Payment; messageId: string | null }> {
  const { organizationId } = sender;
  if (isAgent(sender) && id !== sender.conversationId) throw conversationNotFound();
  const { senderType, userId } = authorOf(sender);
  const hash = idempotencyKey ? await requestHash(id, link) : null;
  const earlier = await madeWith(deps, organizationId, idempotencyKey);
  if (earlier) return { payment: sameRequest(earlier, hash), messageId: null };
  const conversation = await findConversation(deps.orgDb, organizationId, id);
  const connected = await checkLink(deps, conversation, link);
  // The button is a free-form message: refused before the provider is asked for anything.
  assertWindowOpen(conversation);
  await requireSender(deps, organizationId);

  const paymentId = uuidv7();
  const expiresAt = new Date(Date.now() + LINK_MINUTES * MINUTE_MS);
  let checkout;
  try {
    checkout = await openCheckout(deps, connected, {
      paymentId,
      organizationId,
      amount: link.amount,
      currency: link.currency,
      description: link.description,
      expiresAt,
      // The provider's own idempotency: a retry after a lost answer opens the same checkout.
      idempotencyKey: idempotencyKey ? `${organizationId}:${idempotencyKey}` : paymentId,
      notificationUrl: webhookUrl(deps.env, connected.provider, organizationId),
      returnUrl: deps.env.PUBLIC_APP_URL ?? "https://localhost",
    });
  } catch (error) {
    providerFailure(error, "crear el enlace de pago");
  }
  const stamp = new Date().toISOString();
  const [row] = await deps.orgDb
    .insert(payments)
    .values({
      id: paymentId,
      organizationId,
      conversationId: conversation.id,
      bookingId: link.booking_id ?? null,
      provider: connected.provider,
      providerRef: checkout.ref,
      amount: link.amount,
      currency: link.currency,
      description: link.description,
      status: "pending",
      url: checkout.url,
      expiresAt: expiresAt.toISOString(),
      idempotencyKey,
      requestHash: hash,
      createdBy: userId,
      createdAt: stamp,
      updatedAt: stamp,
    })
    .onConflictDoNothing()
    .returning();
  // A retry that raced its first attempt: the first one's payment is the answer.
  if (!row) {
    const first = (await madeWith(deps, organizationId, idempotencyKey))!;
    return { payment: sameRequest(first, hash), messageId: null };
  }
  if (row.bookingId) await holdUntil(deps, organizationId, row.bookingId, expiresAt);
  await deps.schedule("payment_links", expiresAt.getTime());
  await deps.publish({ type: "payment_update", data: { payment: toPayment(row) } });
  const message = await sendOutbound(deps, conversation, {
    senderType,
    senderUserId: userId,
    content: `${row.description}: ${spokenAmount(row.amount, row.currency)}. ${PAY_BUTTON}: ${row.url}`,
    ...payDelivery(row),
  });
  if (isAgent(sender)) {
    await systemNote(
      deps,
      organizationId,
      conversation.id,
      `La IA envió un enlace de pago de ${spokenAmount(row.amount, row.currency)} (${row.description}).`,
    );
  }
  return { payment: toPayment(row), messageId: message.id };
}

// ---------------------------------------------------------------------------------------------
// What the provider says happened.

/**
 * Where a payment may go from where it is (decision 0093): a payment is taken even after its
 * link expired or a try failed (the money is real); only a paid one is refunded; a repeated or
 * late event finds it elsewhere and changes nothing.
 */
const MOVES_FROM: Record<Exclude<PaymentStatus, "pending">, PaymentStatus[]> = {
  paid: ["pending", "expired", "failed"],
  expired: ["pending"],
  failed: ["pending"],
  refunded: ["paid"],
};

/** What the provider said of one payment, found by its id or by what it paid at the provider. */
export interface PaymentChange {
  status: Exclude<PaymentStatus, "pending">;
  providerPaymentId?: string;
}

const scoped = (organizationId: string, id: string) =>
  and(eq(payments.id, id), eq(payments.organizationId, organizationId));

/** A payment of the organization by its id, or by the provider's id of what was paid. */
export async function findPaymentOf(
  deps: StoreDeps,
  organizationId: string,
  ref: { paymentId?: string | null; providerPaymentId?: string | null },
) {
  const where = ref.paymentId
    ? scoped(organizationId, ref.paymentId)
    : ref.providerPaymentId
      ? and(
          eq(payments.organizationId, organizationId),
          eq(payments.providerPaymentId, ref.providerPaymentId),
        )
      : undefined;
  if (!where) return undefined;
  return (await deps.orgDb.select().from(payments).where(where))[0];
}

const THREAD_LINES: Record<PaymentChange["status"], string> = {
  paid: "Pago recibido",
  expired: "Enlace de pago caducado sin pagar",
  failed: "Pago rechazado",
  refunded: "Pago devuelto",
};

/**
 * Moves a payment as its provider says, in one conditional statement (a repeated or late event
 * moves nothing), then does what that means: for a payment, its booking confirmed, one sale in
 * the conversation and one `Purchase` to Meta (keyed by the payment, so never twice).
 * Answers whether anything changed.
 */
export async function applyPaymentChange(
  deps: StoreDeps,
  payment: PaymentRow,
  change: PaymentChange,
) {
  const stamp = new Date().toISOString();
  const [row] = await deps.orgDb
    .update(payments)
    .set({
      status: change.status,
      updatedAt: stamp,
      ...(change.providerPaymentId && { providerPaymentId: change.providerPaymentId }),
      ...(change.status === "paid" && { paidAt: stamp }),
    })
    .where(
      and(
        scoped(payment.organizationId, payment.id),
        inArray(payments.status, MOVES_FROM[change.status]),
      ),
    )
    .returning();
  if (!row) return false;
  const { organizationId, conversationId } = row;
  let line = `${THREAD_LINES[row.status as PaymentChange["status"]]}: ${spokenAmount(row.amount, row.currency)}.`;
  if (row.status === "paid") {
    const booking = row.bookingId
      ? await confirmPaidBooking(deps, organizationId, row.bookingId)
      : null;
    if (booking === "lost") {
      line +=
        " La cita ya estaba cancelada y su hueco no está libre: reserva otra o devuelve el pago.";
    }
    await recordPaidSale(deps, row);
  }
  await systemNote(deps, organizationId, conversationId, line);
  await deps.publish({ type: "payment_update", data: { payment: toPayment(row) } });
  return true;
}

/**
 * A paid link is a sale (contract section 10): a `purchase` conversion keyed by the payment
 * (recorded and sent to Meta once however often the provider tells it), and a Cliente.
 */
async function recordPaidSale(deps: StoreDeps, payment: PaymentRow) {
  const conversation = await findConversation(
    deps.orgDb,
    payment.organizationId,
    payment.conversationId,
  );
  const { conversion, created } = await recordConversationConversion(deps, conversation, {
    eventName: "purchase",
    dedupeKey: `payment:${payment.id}`,
    value: Number(payment.amount),
    currency: payment.currency,
  });
  if (!created) return;
  await recordAudit(deps.orgDb, {
    action: "sale.create",
    organizationId: payment.organizationId,
    userId: null,
    target: conversation.id,
    metadata: {
      sale_id: conversion.id,
      value: conversion.conversion_value,
      currency: conversion.currency,
      via: "payment",
      payment_id: payment.id,
    },
    ip: null,
  });
  await moveToStage(deps, conversation, "customer");
}

// ---------------------------------------------------------------------------------------------
// The store's `payment_links` job.

const LINKS_A_RUN = 50;

/**
 * Links whose time ran out unpaid become `expired` (Mercado Pago says nothing when a preference
 * expires; Stripe's own event finds them expired already). Answers when the next one ends.
 */
export async function expireLinks(deps: StoreDeps, organizationId: string, at: Date) {
  const pending = and(eq(payments.organizationId, organizationId), eq(payments.status, "pending"));
  const due = await deps.orgDb
    .select()
    .from(payments)
    .where(and(pending, lte(payments.expiresAt, at.toISOString())))
    .orderBy(asc(payments.expiresAt))
    .limit(LINKS_A_RUN);
  for (const payment of due) await applyPaymentChange(deps, payment, { status: "expired" });
  if (due.length === LINKS_A_RUN) return Date.now();
  const [next] = await deps.orgDb
    .select({ expiresAt: payments.expiresAt })
    .from(payments)
    .where(pending)
    .orderBy(asc(payments.expiresAt))
    .limit(1);
  return next ? Date.parse(next.expiresAt) : null;
}
