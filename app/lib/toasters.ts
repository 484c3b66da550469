/**
 * The `<Toaster id>` of "Conectado en tiempo real" after a reconnection (`realtime.ts`): the
 * root renders it apart from the others, at the top left, where it covers neither a
 * conversation's thread nor its header (which the other toasts stay below).
 */
export const REALTIME_TOASTER = "realtime";
