import type { HistoryImport } from "../../../../contracts/whatsapp";

/** How far each state is: an import only moves forward (`requested` → `importing` → the end). */
const STAGE: Record<HistoryImport["state"], number> = {
  requested: 0,
  importing: 1,
  done: 2,
  declined: 2,
  failed: 2,
};

/**
 * The further of two copies of the import. Events may overtake each other, and a read of the
 * connection started before some of them may answer after: neither ever moves the import back.
 */
export function furthestImport(
  a: HistoryImport | null,
  b: HistoryImport | null,
): HistoryImport | null {
  if (!a || !b) return a ?? b;
  if (STAGE[a.state] !== STAGE[b.state]) return STAGE[a.state] > STAGE[b.state] ? a : b;
  return {
    ...b,
    progress: Math.max(a.progress, b.progress),
    messages: Math.max(a.messages, b.messages),
    error: b.error ?? a.error,
  };
}
