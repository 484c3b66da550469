/** The Anuncios tab: which click-to-WhatsApp ads brought conversations, leads and sales. */

export interface AdReportRow {
  ad_id: string;
  headline: string | null;
  source_url: string | null;
  conversations: number;
  leads: number;
  sales: number;
  revenue: number;
  /** Null when no ad account is connected. */
  spend: number | null;
  cost_per_conversation: number | null;
  cost_per_lead: number | null;
  roas: number | null;
}

export interface AdsReport {
  currency: string;
  ads: AdReportRow[];
  /** Set when Meta could not be asked for fresh spend: the figures are the last ones kept. */
  spend_error?: string;
}
