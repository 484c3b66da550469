/**
 * The tables an organization's store holds once the organization has moved there (decision
 * 0052), by the name the store's migrations give them. Each moves here with its service; the
 * export, the erasure and the move read this list.
 */
import { quickReplies } from "../db/schema";

export const STORE_TABLES = { quick_replies: quickReplies } as const;
export type StoreTable = keyof typeof STORE_TABLES;
