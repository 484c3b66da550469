/** The audit trail: what is recorded, and the owners' and admins' view of it. */
import { z } from "zod/mini";

export const AUDIT_ACTIONS = [
  "auth.register",
  "auth.login",
  "auth.login_failed",
  "auth.logout",
  "organization.create",
  "organization.update",
  "profile.update",
  "whatsapp.connect",
  "whatsapp.disconnect",
  "agent.delete",
  "knowledge.create",
  "knowledge.update",
  "knowledge.delete",
  "pixel.connect",
  "pixel.disconnect",
  "tracking_key.rotate",
  "retention.run",
  "member.invite",
  "member.invite_revoke",
  "member.join",
  "member.role_change",
  "member.remove",
  "member.availability",
  "conversation.assign",
  "label.create",
  "label.update",
  "label.delete",
  "sale.create",
  "broadcast.schedule",
  "broadcast.send",
  "broadcast.pause",
  "broadcast.resume",
  "broadcast.cancel",
  "follow_up.create",
  "follow_up.update",
  "follow_up.delete",
  "service.create",
  "service.update",
  "service.delete",
  "booking.create",
  "booking.update",
  "account.export",
  "account.delete",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_LOG_PAGE_SIZE = 20;

/** `before` is the id of the last entry already shown; the next page is older than it. */
export const auditLogQuery = z.object({
  // At most 50: a page's actors and targets (two ids an entry) are found in one query, within
  // D1's 100 bound parameters.
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), AUDIT_LOG_PAGE_SIZE),
  before: z.optional(z.uuid()),
});

export interface AuditLogEntry {
  id: string;
  action: AuditAction;
  /** Who did it; null for the system (retention) or an account deleted since. */
  actor: { name: string; email: string } | null;
  /** What it was done to: an e-mail, an id, or a member's e-mail when the target is a user. */
  target: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  created_at: string;
}

export interface AuditLogPage {
  entries: AuditLogEntry[];
  has_more: boolean;
}
