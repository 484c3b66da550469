/**
 * The organization's reminder template (decision 0120): `GET /booking-reminders` for every
 * member, `PUT /booking-reminders` for managers. Kept beside its other bookings settings in its
 * store. Only an approved UTILITY template with the three quick-reply buttons ("Confirmar",
 * "Cambiar", "Cancelar cita") and at most two body parameters (the service, the date and time)
 * is taken; it is checked again at every run, since Meta may pause or recategorise it.
 */
import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { bookingSettings, whatsappTemplates } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { readTemplates } from "../whatsapp/templates-service";
import { templateParameterCount } from "../../contracts/whatsapp";
import {
  REMINDER_ACTIONS,
  REMINDER_BUTTONS,
  REMINDER_PARAMETERS,
  type ReminderAction,
  type ReminderSettings,
  type ReminderSettingsInput,
} from "../../contracts/reminders";
import { readReminderTemplate, replanReminders } from "./planning";

type TemplateRow = typeof whatsappTemplates.$inferSelect;

const refused = (code: string, message: string) => new AppError(422, code, message);

/** "Cancelar  cita" and "cancelar cita" are the same button. */
const buttonText = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

/** Where each action's quick-reply button is among the template's buttons, or null. */
function buttonIndexes(row: TemplateRow): Record<ReminderAction, number> | null {
  const buttons = row.components
    .filter((component) => component.type.toUpperCase() === "BUTTONS")
    .flatMap((component) => component.buttons ?? []);
  const indexes: Partial<Record<ReminderAction, number>> = {};
  for (const action of REMINDER_ACTIONS) {
    const index = buttons.findIndex(
      (button) =>
        button.type.toUpperCase() === "QUICK_REPLY" &&
        buttonText(button.text) === buttonText(REMINDER_BUTTONS[action]),
    );
    if (index < 0) return null;
    indexes[action] = index;
  }
  return indexes as Record<ReminderAction, number>;
}

/** A template a reminder can be sent with, and where its buttons are; else 422 in Spanish. */
export async function usableReminderTemplate(
  deps: StoreDeps,
  organizationId: string,
  template: { name: string; language: string },
) {
  const row = await readTemplates(deps, organizationId, () =>
    deps.orgDb.query.whatsappTemplates.findFirst({
      where: and(
        eq(whatsappTemplates.organizationId, organizationId),
        eq(whatsappTemplates.name, template.name),
        eq(whatsappTemplates.language, template.language),
      ),
    }),
  );
  if (!row) {
    throw refused("template_not_found", "La plantilla no existe en tu cuenta de WhatsApp.");
  }
  if (row.status !== "APPROVED") {
    throw refused("template_not_approved", "Solo se pueden usar plantillas aprobadas por Meta.");
  }
  if (row.category !== "UTILITY") {
    throw refused(
      "template_category",
      "El recordatorio solo puede usar una plantilla de utilidad (UTILITY).",
    );
  }
  const buttons = buttonIndexes(row);
  if (!buttons) {
    throw refused(
      "template_buttons",
      "La plantilla del recordatorio necesita tres botones de respuesta rápida: «Confirmar», «Cambiar» y «Cancelar cita».",
    );
  }
  const parameters = templateParameterCount(row);
  if (parameters > REMINDER_PARAMETERS.length) {
    throw refused(
      "template_parameters",
      "La plantilla del recordatorio admite como mucho 2 parámetros: {{1}} el servicio y {{2}} la fecha y la hora.",
    );
  }
  return { row, buttons, parameters };
}

const toSettings = (template: ReminderSettings["template"]): ReminderSettings => ({
  template,
  parameters: REMINDER_PARAMETERS,
  buttons: REMINDER_ACTIONS.map((action) => REMINDER_BUTTONS[action]),
});

/** `GET /booking-reminders`. */
export async function getReminderSettings(deps: StoreDeps, member: Member) {
  return toSettings(await readReminderTemplate(deps.orgDb, member.organizationId));
}

/**
 * `PUT /booking-reminders`: the template checked, kept and audited; the confirmed bookings more
 * than a day ahead get their reminders (or, with none, lose the pending ones).
 */
export async function saveReminderSettings(
  deps: StoreDeps,
  member: Member,
  input: ReminderSettingsInput,
) {
  const { organizationId } = member;
  const template = input.template;
  if (template) await usableReminderTemplate(deps, organizationId, template);
  const columns = {
    reminderTemplateName: template?.name ?? null,
    reminderTemplateLanguage: template?.language ?? null,
    updatedAt: new Date().toISOString(),
  };
  await deps.orgDb
    .insert(bookingSettings)
    .values({ organizationId, closedDates: [], ...columns })
    .onConflictDoUpdate({ target: bookingSettings.organizationId, set: columns });
  await recordAudit(deps.orgDb, {
    action: "booking.update",
    organizationId,
    userId: member.userId,
    metadata: { change: "reminder_template", template },
    ip: member.ip,
  });
  await replanReminders(deps, organizationId, template !== null);
  return toSettings(template);
}
