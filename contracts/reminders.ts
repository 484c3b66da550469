/**
 * Booking reminders (contract section 18, decisions 0120-0123): a day before a confirmed booking
 * the organization's chosen UTILITY template goes to the customer with three quick-reply buttons
 * ("Confirmar", "Cambiar", "Cancelar cita") whose payloads name the booking and what to do.
 */
import { z } from "zod/mini";

/** Where a booking's reminder stands. */
export const REMINDER_STATES = [
  "pending",
  "sending",
  "sent",
  "failed",
  "skipped",
  "cancelled",
] as const;
export type ReminderState = (typeof REMINDER_STATES)[number];

/** What a reminder's buttons do, in the order their payloads are given. */
export const REMINDER_ACTIONS = ["confirm", "reschedule", "cancel"] as const;
export type ReminderAction = (typeof REMINDER_ACTIONS)[number];

/** The buttons' texts the chosen template must have, for each action. */
export const REMINDER_BUTTONS: Record<ReminderAction, string> = {
  confirm: "Confirmar",
  reschedule: "Cambiar",
  cancel: "Cancelar cita",
};

/** What the template's body placeholders are filled with, in order (`{{1}}`, `{{2}}`). */
export const REMINDER_PARAMETERS = ["el servicio", "la fecha y la hora"] as const;

const templateName = z
  .string({ error: "El nombre de la plantilla es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El nombre de la plantilla es obligatorio"),
    z.maxLength(512, "El nombre de la plantilla admite como máximo 512 caracteres"),
  );
const templateLanguage = z
  .string({ error: "El idioma de la plantilla es obligatorio" })
  .check(
    z.trim(),
    z.minLength(2, "El idioma de la plantilla es obligatorio"),
    z.maxLength(15, "El idioma de la plantilla admite como máximo 15 caracteres"),
  );

/** `PUT /booking-reminders`: the template to send, or null for no reminders. */
export const reminderSettingsInput = z.strictObject({
  template: z.nullable(z.strictObject({ name: templateName, language: templateLanguage })),
});
export type ReminderSettingsInput = z.infer<typeof reminderSettingsInput>;

/** `GET /booking-reminders`: the chosen template (null: no reminders are sent). */
export interface ReminderSettings {
  template: { name: string; language: string } | null;
  /** What its body's `{{1}}`, `{{2}}` are filled with. */
  parameters: readonly string[];
  /** The quick-reply buttons the template must have. */
  buttons: readonly string[];
}
