/** The part of an audit entry's details worth reading, after its action's label. */
import type { AuditLogEntry } from "../../../contracts/audit";
import { ROLES, type Role } from "../../../contracts/auth";
import { ROLE_LABELS } from "~/components/settings/members-section";

type Details = AuditLogEntry["details"];

const roleLabel = (value: unknown) =>
  ROLES.includes(value as Role) ? ROLE_LABELS[value as Role] : null;

/** The part of an entry's details worth reading: the roles involved. */
function roleSummary(details: Details) {
  const from = roleLabel(details?.from);
  const to = roleLabel(details?.to);
  if (from && to) return `${from} → ${to}`;
  const role = roleLabel(details?.role);
  return role ? `Rol: ${role}` : null;
}

const PAYMENT_PROVIDERS: Record<string, string> = { stripe: "Stripe", mercadopago: "Mercado Pago" };

/**
 * What the payments and the AI's acts write in the details of the server's own actions
 * (decision 0118): a provider connected or disconnected and the links' limit are an
 * `organization.update`, a paid link a `sale.create` with `via: "payment"`, a booking by the
 * AI a `booking.*` with its `agent_id`.
 */
function paymentSummary(details: Details) {
  const fields = Array.isArray(details?.fields) ? (details.fields as unknown[]) : [];
  if (fields.includes("payments")) {
    const provider = PAYMENT_PROVIDERS[String(details?.provider)];
    return provider ? `Pagos: ${provider} conectado` : "Pagos: proveedor desconectado";
  }
  if (fields.includes("max_payment_amount")) return "Importe máximo de los enlaces de pago";
  if (details?.via === "payment") return "Pagado con un enlace de pago";
  if (typeof details?.agent_id === "string") return "Por la IA";
  return null;
}

/** What a retention run deleted for being older than two years (decision 0153). */
const RETAINED = [
  ["messages", "mensaje", "mensajes"],
  ["conversations", "conversación", "conversaciones"],
  ["tracking_sessions", "visita", "visitas"],
  ["conversions", "conversión", "conversiones"],
] as const;

function retentionSummary(details: Details) {
  const deleted = details?.deleted;
  if (typeof deleted !== "object" || deleted === null) return null;
  const counts = deleted as Record<string, unknown>;
  const parts = RETAINED.flatMap(([key, one, many]) => {
    const count = Number(counts[key] ?? 0);
    return count > 0 ? [`${count.toLocaleString("es-ES")} ${count === 1 ? one : many}`] : [];
  });
  return `Borrado por antigüedad: ${parts.length > 0 ? parts.join(", ") : "datos técnicos"}`;
}

/** The roles involved, a payment's or the AI's part, or what a retention run deleted. */
export const entrySummary = (details: Details) =>
  roleSummary(details) ?? paymentSummary(details) ?? retentionSummary(details);
