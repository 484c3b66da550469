/** What the Difusiones routes read, besides the broadcasts themselves. */
import { data as routeData } from "react-router";
import type { AudienceAd, Broadcast, MarketingAllowanceView } from "../../../contracts/broadcasts";
import { ApiError, client, data, errorMessage } from "~/lib/api";
import type { TemplatesLoaded } from "./template-field";

/** The account's templates (Meta's list, refreshed), or why they could not be read. */
export async function readTemplates(): Promise<TemplatesLoaded> {
  try {
    const answer = await data(client["whatsapp-config"].templates.$get());
    return { ok: true, data: answer.templates };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

/** The organization's labels (none when they cannot be read: the form says so). */
export const readLabels = () =>
  data(client.labels.$get())
    .then((answer) => answer.labels)
    .catch(() => []);

/**
 * The ads the organization's conversations came from, most conversations first (none when they
 * cannot be read, like the labels: the form then offers none).
 */
export const readAudienceAds = (): Promise<AudienceAd[]> =>
  data(client.broadcasts.audience.ads.$get()).catch(() => []);

/**
 * The month's marketing budget left and the frequency cap (null when they cannot be read: the
 * form is still usable, and the preview says them again).
 */
export const readMarketingAllowance = (): Promise<MarketingAllowanceView | null> =>
  data(client.broadcasts.allowance.$get()).catch(() => null);

/** What `read` answers; its 404 is the route's `missing` (a 404 its ErrorBoundary shows). */
export const orNotFound = <T>(read: Promise<T>, missing: string): Promise<T> =>
  read.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      throw routeData(missing, { status: 404 });
    }
    throw error;
  });

/** One broadcast; a 404 is the route's "Difusión no encontrada". */
export const readBroadcast = (id: string): Promise<Broadcast> =>
  orNotFound(data(client.broadcasts[":id"].$get({ param: { id } })), "Difusión no encontrada");
