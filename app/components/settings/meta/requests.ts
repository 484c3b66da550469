/** The calls of the Meta Business and Tracking tabs. */
import type {
  MetaConfig,
  MetaTestResult,
  TestConversionResult,
} from "../../../../worker/tracking/meta-contract";
import type {
  MetaAppConfig,
  OauthStatus,
  WhatsappConfig,
  WhatsappTestResult,
} from "../../../../worker/whatsapp/contract";
import { api, ApiError } from "~/lib/api";

export type {
  MetaAppConfig,
  MetaConfig,
  MetaTestResult,
  OauthStatus,
  TestConversionResult,
  WhatsappConfig,
  WhatsappTestResult,
};

/** A GET whose 404 means "nothing there" (spec: GET returns null on 404). */
export async function getOrNull<T>(path: string): Promise<T | null> {
  try {
    return await api.get<T>(path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const fetchWhatsappConfig = () => getOrNull<WhatsappConfig>("/whatsapp-config");
export const fetchPixelConfig = () => getOrNull<MetaConfig>("/meta-config");
