/** The Seguimientos screens' words: a rule's wait, trigger and message said in Spanish. */
import type { FollowUp } from "../../../contracts/follow-ups";
import { STAGE_LABELS } from "../../../contracts/sales";
import type { Label } from "../../../contracts/team-inbox";

/** The units a wait is written in; the API takes minutes. */
export const WAIT_UNITS = [
  { value: "minutes", label: "minutos", minutes: 1 },
  { value: "hours", label: "horas", minutes: 60 },
  { value: "days", label: "días", minutes: 24 * 60 },
] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number]["value"];

export const unitMinutes = (unit: WaitUnit) => WAIT_UNITS.find((u) => u.value === unit)!.minutes;

/** A wait in the largest unit that writes it whole: 2880 → 2 días, 90 → 90 minutos. */
export function waitInUnits(minutes: number): { amount: string; unit: WaitUnit } {
  const unit = [...WAIT_UNITS].reverse().find((u) => minutes % u.minutes === 0) ?? WAIT_UNITS[0];
  return { amount: String(minutes / unit.minutes), unit: unit.value };
}

/** 30 → "30 min", 120 → "2 h", 90 → "1 h 30 min", 1440 → "1 día", 2940 → "2 días 1 h". */
export function formatWait(minutes: number) {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days} ${days === 1 ? "día" : "días"}`);
  if (hours) parts.push(`${hours} h`);
  if (rest) parts.push(`${rest} min`);
  return parts.join(" ");
}

/** "Tras 2 h sin respuesta · Etiquetas: VIP · Etapas: Interesado". */
export function triggerWords(trigger: FollowUp["trigger"], labels: Label[]) {
  const parts = [`Tras ${formatWait(trigger.no_reply_minutes)} sin respuesta`];
  if (trigger.label_ids.length > 0) {
    const names = trigger.label_ids.map(
      (id) => labels.find((l) => l.id === id)?.name ?? "(etiqueta eliminada)",
    );
    parts.push(`Etiquetas: ${names.join(" o ")}`);
  }
  if (trigger.stages.length > 0) {
    parts.push(`Etapas: ${trigger.stages.map((s) => STAGE_LABELS[s]).join(" o ")}`);
  }
  if (parts.length === 1) parts.push("Todas las conversaciones");
  return parts.join(" · ");
}

/** "Texto dentro de las 24 h · Plantilla «recordatorio» fuera". */
export function messageWords({ text, template }: Pick<FollowUp, "text" | "template">) {
  if (text && template) return `Texto dentro de las 24 h · Plantilla «${template.name}» fuera`;
  if (template) return `Plantilla «${template.name}», dentro y fuera de las 24 h`;
  return "Solo texto, dentro de las 24 h";
}

/** "Hasta 1 vez por conversación". */
export const timesWords = (n: number) => `Hasta ${n} ${n === 1 ? "vez" : "veces"} por conversación`;
