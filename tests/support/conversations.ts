// A customer's conversation as the console reads it, through the typed client.
import { answer, api } from "./api";

/**
 * The conversation of the customer who wrote from `phone`, found as the console's search finds
 * it, and the first page of its messages.
 */
export async function customerThread(token: string, phone: string) {
  const client = api(token);
  const list = await answer(client.conversations.$get({ query: { search: phone } }));
  const conversation = list.body.data.conversations[0]!;
  const page = await answer(
    client.conversations[":id"].messages.$get({ param: { id: conversation.id }, query: {} }),
  );
  return { conversation, messages: page.body.data.messages };
}
