/**
 * Services (contract section 18): what the organization books, for how long, for how much and
 * by whom. Every member reads them; owners and admins write them; at most `MAX_SERVICES`.
 */
import { and, asc, count, eq, gt, inArray, or } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import type { AuditAction } from "../../contracts/audit";
import type { Db } from "../../worker/db/client";
import type { OrganizationDb } from "../db";
import { memberships } from "../../worker/db/global-schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import {
  AppError,
  conflict,
  fieldError,
  notFound,
  validationError,
} from "../../worker/http/errors";
import { organizationCurrency } from "../organizations/currency";
import {
  MAX_SERVICES,
  serviceInput,
  type Service,
  type ServiceInput,
  type ServiceUpdate,
} from "../../contracts/bookings";
import { bookings, services } from "../schema";

export type ServiceRow = typeof services.$inferSelect;

export const serviceNotFound = () => notFound("Servicio no encontrado.");

const scoped = (organizationId: string, id: string) =>
  and(eq(services.id, id), eq(services.organizationId, organizationId));

export const toService = (row: ServiceRow): Service => ({
  id: row.id,
  name: row.name,
  duration_minutes: row.durationMinutes,
  buffer_minutes: row.bufferMinutes,
  price: row.price,
  currency: row.currency,
  payment: row.payment,
  deposit: row.deposit,
  staff_user_ids: row.staffUserIds,
  active: row.active,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export async function findService(db: OrganizationDb, organizationId: string, id: string) {
  const [row] = await db.select().from(services).where(scoped(organizationId, id));
  if (!row) throw serviceNotFound();
  return row;
}

/** The organization's services, in the order they were created. */
export async function listServices({ orgDb }: StoreDeps, member: Member) {
  const rows = await orgDb
    .select()
    .from(services)
    .where(eq(services.organizationId, member.organizationId))
    .orderBy(asc(services.id));
  return rows.map(toService);
}

export async function getService({ orgDb }: StoreDeps, member: Member, id: string) {
  return toService(await findService(orgDb, member.organizationId, id));
}

/** Who performs a service must be a member of the organization (members are global: D1). */
async function checkStaff(db: Db, organizationId: string, userIds: string[]) {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return unique;
  const found = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, unique)),
    );
  if (found.length !== unique.length) {
    throw fieldError("staff_user_ids", "Solo pueden atender personas del equipo");
  }
  return unique;
}

async function serviceColumns(deps: StoreDeps, organizationId: string, service: ServiceInput) {
  return {
    name: service.name,
    durationMinutes: service.duration_minutes,
    bufferMinutes: service.buffer_minutes,
    price: service.price,
    currency: service.currency ?? (await organizationCurrency(deps)),
    payment: service.payment,
    deposit: service.payment === "deposit" ? service.deposit : null,
    staffUserIds: await checkStaff(deps.db, organizationId, service.staff_user_ids),
    active: service.active,
  };
}

const audit = (deps: StoreDeps, member: Member, action: AuditAction, row: ServiceRow) =>
  recordAudit(deps.orgDb, {
    action,
    organizationId: member.organizationId,
    userId: member.userId,
    target: row.id,
    metadata: { service_id: row.id, name: row.name },
    ip: member.ip,
  });

export async function createService(deps: StoreDeps, member: Member, input: ServiceInput) {
  const { organizationId } = member;
  const [existing] = await deps.orgDb
    .select({ n: count() })
    .from(services)
    .where(eq(services.organizationId, organizationId));
  if ((existing?.n ?? 0) >= MAX_SERVICES) {
    throw new AppError(
      422,
      "too_many_services",
      `Como mucho ${MAX_SERVICES} servicios por organización: borra o cambia uno.`,
    );
  }
  const [row] = await deps.orgDb
    .insert(services)
    .values({ organizationId, ...(await serviceColumns(deps, organizationId, input)) })
    .returning();
  await audit(deps, member, "service.create", row!);
  return toService(row!);
}

/** Applies a change and checks the service it makes as a new one would be. */
export async function updateService(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: ServiceUpdate },
) {
  const { organizationId } = member;
  const current = toService(await findService(deps.orgDb, organizationId, id));
  const given = Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  );
  const checked = serviceInput.safeParse({ ...current, ...given });
  if (!checked.success) throw validationError(checked.error);
  const [row] = await deps.orgDb
    .update(services)
    .set({
      ...(await serviceColumns(deps, organizationId, checked.data)),
      updatedAt: new Date().toISOString(),
    })
    .where(scoped(organizationId, id))
    .returning();
  if (!row) throw serviceNotFound();
  await audit(deps, member, "service.update", row);
  return toService(row);
}

/**
 * Deletes a service that has no live booking to come (those would lose what they are: the
 * service can be deactivated instead); its past bookings keep its name.
 */
export async function deleteService(deps: StoreDeps, member: Member, id: string) {
  const { organizationId } = member;
  const now = new Date().toISOString();
  const [upcoming] = await deps.orgDb
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.organizationId, organizationId),
        eq(bookings.serviceId, id),
        gt(bookings.busyUntil, now),
        or(eq(bookings.status, "confirmed"), eq(bookings.status, "pending_payment")),
      ),
    )
    .limit(1);
  if (upcoming) {
    throw conflict(
      "Este servicio tiene citas pendientes: cancélalas o desactiva el servicio (active: false).",
    );
  }
  const [row] = await deps.orgDb.delete(services).where(scoped(organizationId, id)).returning();
  if (!row) throw serviceNotFound();
  await audit(deps, member, "service.delete", row);
}
