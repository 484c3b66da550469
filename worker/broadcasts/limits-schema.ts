/**
 * What the owner allows marketing (contract section 17, 2026-11-28; decision 0080): a monthly
 * budget of sends and of their estimated cost, and how many marketing messages one customer may
 * get in a number of days. Kept in the organization's store, one row, since only the store's
 * sending reads it; the organization's PATCH writes it there (./marketing-limits.ts).
 */
import { integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Two marketing messages in seven days when the owner has set nothing. */
export const DEFAULT_MARKETING_FREQUENCY = { max: 2, days: 7 } as const;

export const marketingLimits = sqliteTable("marketing_limits", {
  /** The store's organization: the table holds one row. */
  organizationId: text("organization_id").primaryKey().notNull(),
  /** Sends a calendar month (UTC); null: no cap. */
  monthlySends: integer("monthly_sends"),
  /** Estimated cost a calendar month (UTC), in `currency`; null: no cap. */
  monthlyCost: real("monthly_cost"),
  currency: text("currency"),
  frequencyMax: integer("frequency_max").notNull().default(DEFAULT_MARKETING_FREQUENCY.max),
  frequencyDays: integer("frequency_days").notNull().default(DEFAULT_MARKETING_FREQUENCY.days),
  updatedAt: text("updated_at").notNull(),
});
