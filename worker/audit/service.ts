import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";

export type AuditAction =
  | "auth.register"
  | "auth.login"
  | "auth.login_failed"
  | "auth.logout"
  | "organization.create"
  | "organization.update"
  | "profile.update"
  | "whatsapp.connect"
  | "whatsapp.disconnect"
  | "agent.delete"
  | "pixel.connect"
  | "pixel.disconnect"
  | "retention.run"
  | "member.invite"
  | "member.join"
  | "member.role_change"
  | "member.remove"
  | "account.export"
  | "account.delete";

export interface AuditEntry {
  action: AuditAction;
  organizationId?: string | null;
  userId?: string | null;
  target?: string;
  metadata?: Record<string, unknown>;
  ip?: string | null;
}

/** Records a security-relevant event. Never put secrets in `metadata`. */
export async function recordAudit(db: Db, entry: AuditEntry) {
  await db.insert(auditEvents).values({
    action: entry.action,
    organizationId: entry.organizationId ?? null,
    userId: entry.userId ?? null,
    target: entry.target,
    metadata: entry.metadata,
    ip: entry.ip ?? null,
  });
}
