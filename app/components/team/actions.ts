/**
 * The member's own availability ("Disponible" / "Ausente"), as the sidebar's switch sends it to
 * the root route's action (`routes/availability-action.ts`, decision 0145).
 */
export interface AvailabilityChange {
  userId: string;
  available: boolean;
}

/** What the action answers: the availability as saved, or that it was refused (said in a toast). */
export type AvailabilityResult = { ok: true; available: boolean } | { ok: false };
