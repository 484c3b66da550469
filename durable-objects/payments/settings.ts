/**
 * The organization's payment settings, one row of its store (decision 0091): the provider it
 * connected, its secret key and webhooks' secret sealed with ENCRYPTION_KEY as WhatsApp's tokens
 * are (durable-objects/meta/secrets.ts), never returned; and the largest link it sends.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { paymentSettings } from "../schema";
import type { Env } from "../../worker/env";
import { decryptSecret, encryptSecret } from "../meta/secrets";
import {
  DEFAULT_MAX_PAYMENT_AMOUNT,
  type PaymentIntegration,
  type PaymentLimits,
  type PaymentProvider,
} from "../../contracts/payments";

type SettingsRow = typeof paymentSettings.$inferSelect;

/** A connected provider with its secrets opened, for the store's own calls to it. */
export interface ConnectedProvider {
  provider: PaymentProvider;
  secret: string;
  webhookSecret: string;
}

const readRow = async (db: OrganizationDb, organizationId: string) =>
  (
    await db
      .select()
      .from(paymentSettings)
      .where(eq(paymentSettings.organizationId, organizationId))
  )[0];

export async function readPaymentLimits(
  db: OrganizationDb,
  organizationId: string,
): Promise<PaymentLimits> {
  const row = await readRow(db, organizationId);
  return { max_payment_amount: row?.maxPaymentAmount ?? DEFAULT_MAX_PAYMENT_AMOUNT };
}

export async function saveMaxPaymentAmount(
  db: OrganizationDb,
  organizationId: string,
  maxPaymentAmount: number,
) {
  const columns = { maxPaymentAmount, updatedAt: new Date().toISOString() };
  await db
    .insert(paymentSettings)
    .values({ organizationId, ...columns })
    .onConflictDoUpdate({ target: paymentSettings.organizationId, set: columns });
}

/** Where a provider posts an organization's events: the path the contract fixes, and its id. */
export const webhookUrl = (env: Env, provider: PaymentProvider, organizationId: string) =>
  `${env.PUBLIC_APP_URL ?? ""}/webhooks/payments/${provider}?organization=${organizationId}`;

const toIntegration = (env: Env, row: SettingsRow): PaymentIntegration | null =>
  row.provider && row.connectedAt
    ? {
        provider: row.provider,
        account_id: row.accountId ?? "",
        connected_at: row.connectedAt,
        connected_by: row.connectedBy,
        webhook_url: webhookUrl(env, row.provider, row.organizationId),
      }
    : null;

export async function readIntegration(env: Env, db: OrganizationDb, organizationId: string) {
  const row = await readRow(db, organizationId);
  return row ? toIntegration(env, row) : null;
}

/** The connected provider and its secrets; null when none is connected. */
export async function connectedProvider(
  env: Env,
  db: OrganizationDb,
  organizationId: string,
): Promise<ConnectedProvider | null> {
  const row = await readRow(db, organizationId);
  if (!row?.provider || !row.secretEncrypted || !row.webhookSecretEncrypted) return null;
  return {
    provider: row.provider,
    secret: await decryptSecret(row.secretEncrypted, env.ENCRYPTION_KEY),
    webhookSecret: await decryptSecret(row.webhookSecretEncrypted, env.ENCRYPTION_KEY),
  };
}

export async function saveIntegration(
  env: Env,
  db: OrganizationDb,
  organizationId: string,
  connection: ConnectedProvider & { accountId: string; connectedBy: string },
) {
  const now = new Date().toISOString();
  const columns = {
    provider: connection.provider,
    secretEncrypted: await encryptSecret(connection.secret, env.ENCRYPTION_KEY),
    webhookSecretEncrypted: await encryptSecret(connection.webhookSecret, env.ENCRYPTION_KEY),
    accountId: connection.accountId,
    connectedBy: connection.connectedBy,
    connectedAt: now,
    updatedAt: now,
  };
  const [row] = await db
    .insert(paymentSettings)
    .values({ organizationId, ...columns })
    .onConflictDoUpdate({ target: paymentSettings.organizationId, set: columns })
    .returning();
  return toIntegration(env, row!)!;
}

/** Forgets the provider and its secrets; the largest link stays. Answers whether one was. */
export async function removeIntegration(db: OrganizationDb, organizationId: string) {
  const removed = await db
    .update(paymentSettings)
    .set({
      provider: null,
      secretEncrypted: null,
      webhookSecretEncrypted: null,
      accountId: null,
      connectedBy: null,
      connectedAt: null,
      updatedAt: new Date().toISOString(),
    })
    .where(
      and(eq(paymentSettings.organizationId, organizationId), isNotNull(paymentSettings.provider)),
    )
    .returning({ organizationId: paymentSettings.organizationId });
  return removed.length > 0;
}
