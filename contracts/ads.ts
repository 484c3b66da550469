/** The Anuncios tab: which click-to-WhatsApp ads brought conversations, leads and sales. */

export interface AdReportRow {
  ad_id: string;
  headline: string | null;
  source_url: string | null;
  conversations: number;
  leads: number;
  /** Bookings kept (confirmed, completed, no-show) made in the range in its conversations. */
  bookings: number;
  sales: number;
  revenue: number;
  /** Null when no ad account is connected. */
  spend: number | null;
  /**
   * What its conversations' billable messages cost: null while Meta has not priced one of
   * them yet (its day not read, or not connected).
   */
  message_cost: number | null;
  /** revenue − spend − message_cost; null when neither spend nor message cost is known. */
  profit: number | null;
  cost_per_conversation: number | null;
  cost_per_lead: number | null;
  roas: number | null;
}

export interface AdsReport {
  currency: string;
  ads: AdReportRow[];
  /** The sum of the rows' message costs; null while one of them is not known. */
  message_cost_total: number | null;
  /** Set when Meta could not be asked for fresh spend: the figures are the last ones kept. */
  spend_error?: string;
  /** The same for message costs. */
  message_cost_error?: string;
}

/** This period's WhatsApp message costs, as Meta's pricing analytics reports them. */
export interface MessageCostSummary {
  /** Null when Meta's figures for the period are not readable (no number, none read yet). */
  total: number | null;
  billable_messages: number;
  by_category: Record<string, number>;
  currency: string;
  error?: string;
}
