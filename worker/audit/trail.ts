/**
 * An entry of an audit trail, and the account's own trail in D1 (a sign-in, a profile change:
 * no organization). An organization's trail is in its store (durable-objects/audit/service.ts).
 */
import type { Db } from "../db/client";
import { accountAuditEvents } from "../db/global-schema";
import type { AuditAction } from "../../contracts/audit";

export interface AuditEntry {
  action: AuditAction;
  organizationId?: string | null;
  userId?: string | null;
  target?: string;
  metadata?: Record<string, unknown>;
  ip?: string | null;
}

export const auditRow = (entry: AuditEntry) => ({
  action: entry.action,
  organizationId: entry.organizationId ?? null,
  userId: entry.userId ?? null,
  target: entry.target,
  metadata: entry.metadata,
  ip: entry.ip ?? null,
});

/** The statement recording an account's own entry (no organization), in D1. */
export const accountAuditStatement = (db: Db, entry: Omit<AuditEntry, "organizationId">) =>
  db.insert(accountAuditEvents).values(auditRow(entry));

/** Records an account's own event (a sign-in, a profile change), in D1. */
export async function recordAccountAudit(db: Db, entry: Omit<AuditEntry, "organizationId">) {
  await accountAuditStatement(db, entry);
}
