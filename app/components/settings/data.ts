/**
 * What the settings screens show, read in their route loaders: every request of a screen starts
 * at once, and each tab (or section) keeps its own failure, so one that cannot load never takes
 * the others down with it.
 */
import { useEffect } from "react";
import { toastFailed } from "~/lib/outcome";
import { AUDIT_LOG_PAGE_SIZE } from "../../../contracts/audit";
import { ApiError, client, data, errorMessage } from "~/lib/api";
import { live } from "~/lib/live-store";

/** A part of the screen that loaded, or the message of why it did not. */
export type Loaded<T> = { ok: true; data: T } | { ok: false; error: string };

async function settle<T>(read: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await read };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

/** A read whose 404 means "nothing there" (spec: GET returns null on 404). */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const readWhatsappConfig = () => orNull(data(client["whatsapp-config"].$get()));
const readPixelConfig = () => orNull(data(client["meta-config"].$get()));

/** The first page of the audit log, or the one before `before`. */
export const readAuditLogPage = (before?: string) =>
  data(
    client.organizations["audit-log"].$get({
      query: { limit: String(AUDIT_LOG_PAGE_SIZE), ...(before ? { before } : {}) },
    }),
  );

/**
 * Meta Business, Tracking and Cobros tabs: one read of the pixel and the number serves them.
 * Each keeps the live store's mark taken before: the number's status Meta announces after it
 * (`whatsapp_status`) is laid over what the tab read (decisions 0145 and 0151).
 */
export function loadConnectionTabs() {
  const asked = live.mark();
  const pixel = readPixelConfig();
  const whatsapp = readWhatsappConfig();
  const meta = settle(
    Promise.all([
      whatsapp,
      pixel,
      data(client.whatsapp.oauth["app-config"].$get()),
      // The agent list only feeds the default-agent select: its failure is not fatal.
      settle(data(client.agents.$get())),
    ]).then(([whatsapp, pixel, appConfig, agents]) => ({
      whatsapp,
      pixel,
      appConfig,
      agents,
      asked,
    })),
  );
  const tracking = settle(
    Promise.all([pixel, data(client.whatsapp.oauth.status.$get())]).then(([pixel, whatsapp]) => ({
      pixel,
      whatsapp,
      asked,
    })),
  );
  // Payment links and the booking Flow (contract section 18): every member reads them.
  const payments = settle(
    Promise.all([
      data(client.integrations.payments.$get()),
      data(client.organizations.me.$get()),
      data(client.whatsapp["booking-flow"].$get()),
      whatsapp,
    ]).then(([integration, organization, flow, number]) => ({
      integration,
      maxPaymentAmount: organization.max_payment_amount,
      flow,
      numberConnected: number?.status === "connected",
      asked,
    })),
  );
  return Promise.all([meta, tracking, payments]).then(([meta, tracking, payments]) => ({
    meta,
    tracking,
    payments,
  }));
}

export type ConnectionTabs = Awaited<ReturnType<typeof loadConnectionTabs>>;
export type MetaTabData = Extract<ConnectionTabs["meta"], { ok: true }>["data"];
export type PaymentsTabData = Extract<ConnectionTabs["payments"], { ok: true }>["data"];

/**
 * Organization tab: its team, invitations, quick replies, labels and log, side by side. Invitations and
 * the log are for owners and admins: anyone else's read is refused (403) and, as each section
 * keeps its own result, the screen shows them the rest (their sections are not rendered).
 */
export async function loadOrganizationTab() {
  const organization = data(client.organizations.me.$get());
  const [members, invitations, quickReplies, auditLog, labels, marketing, hours] =
    await Promise.all([
      settle(data(client.organizations.members.$get())),
      settle(data(client.organizations.invitations.$get())),
      settle(data(client["quick-replies"].$get())),
      settle(readAuditLogPage()),
      settle(data(client.labels.$get()).then((answer) => answer.labels)),
      // What the owner allows marketing: the organization's store keeps it (decision 0080).
      settle(
        organization.then((organization) => ({
          budget: organization.marketing_budget,
          frequency: organization.marketing_frequency,
        })),
      ),
      // The opening hours, away message and notice of the bookings (decision 0076).
      settle(
        organization.then((organization) => ({
          time_zone: organization.time_zone,
          opening_hours: organization.opening_hours,
          away_message: organization.away_message,
          min_notice_minutes: organization.min_notice_minutes,
        })),
      ),
    ]);
  return { members, invitations, quickReplies, auditLog, labels, marketing, hours };
}

export type OrganizationTabData = Awaited<ReturnType<typeof loadOrganizationTab>>;

/** The toast a part of the screen showed when its data could not load, once per load. */
export function useLoadFailureToast(loaded: Loaded<unknown> | null, title: string) {
  useEffect(() => {
    if (loaded && !loaded.ok) toastFailed(title, loaded.error);
  }, [loaded, title]);
}
