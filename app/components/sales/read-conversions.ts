import { client, data } from "~/lib/api";

/**
 * A conversation's conversions: read by the conversation's loader, and again by the sales
 * panel (which the route loads lazily, so this stays out of it).
 */
export const readConversions = (conversationId: string) =>
  data(client.conversations[":id"].conversions.$get({ param: { id: conversationId } }));
