import type { AudienceAd, Broadcast } from "../../../contracts/broadcasts";
import { STAGE_LABELS } from "../../../contracts/sales";
import type { Label } from "../../../contracts/team-inbox";
import { CATEGORY_LABELS } from "./labels";
import { formatZonedDay } from "./zoned-time";
import { whenOf } from "./when";

/**
 * The ads in words: by headline those `ads` name (each headline once), the rest counted;
 * without any headline known, as many ads as there are.
 */
function adsLine(adIds: string[], ads: AudienceAd[]) {
  const headlines = new Set<string>();
  let unnamed = 0;
  for (const id of adIds) {
    const headline = ads.find((ad) => ad.ad_id === id)?.headline;
    if (headline) headlines.add(headline);
    else unnamed += 1;
  }
  if (headlines.size === 0) {
    return adIds.length === 1
      ? "Llegaron por un anuncio concreto"
      : `Llegaron por uno de ${adIds.length} anuncios`;
  }
  const named = `Llegaron por el anuncio ${[...headlines].map((h) => `«${h}»`).join(" o ")}`;
  if (unnamed === 0) return named;
  return `${named} o por ${unnamed === 1 ? "otro anuncio" : `otros ${unnamed} anuncios`}`;
}

/**
 * The audience's criteria in words, one per line; every WhatsApp customer when none. `ads`
 * (the organization's, `readAudienceAds`) name the ads by headline when they know them.
 */
export function audienceLines(
  broadcast: Broadcast,
  labels: Label[],
  ads: AudienceAd[],
  timeZone: string,
) {
  const a = broadcast.audience;
  const lines: string[] = [];
  if (a.label_ids?.length) {
    const names = a.label_ids.map(
      (id) => labels.find((l) => l.id === id)?.name ?? "(etiqueta eliminada)",
    );
    lines.push(`Con la etiqueta ${names.join(" o ")}`);
  }
  if (a.stages?.length) {
    lines.push(`En la etapa ${a.stages.map((s) => STAGE_LABELS[s]).join(" o ")}`);
  }
  if (a.ad_ids?.length) lines.push(adsLine(a.ad_ids, ads));
  if (a.last_inbound_after) {
    lines.push(`Su último mensaje, después del ${formatZonedDay(a.last_inbound_after, timeZone)}`);
  }
  if (a.last_inbound_before) {
    lines.push(`Su último mensaje, antes del ${formatZonedDay(a.last_inbound_before, timeZone)}`);
  }
  if (a.has_phone) lines.push("Solo con teléfono");
  return lines.length > 0 ? lines : ["Todos los clientes de WhatsApp"];
}

/** What the broadcast sends, to whom and when. */
export function BroadcastSummary({
  broadcast,
  labels,
  ads,
  timeZone,
}: {
  broadcast: Broadcast;
  labels: Label[];
  ads: AudienceAd[];
  timeZone: string;
}) {
  const { template } = broadcast;
  return (
    <section
      aria-labelledby="summary-title"
      className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <h2 id="summary-title" className="text-base font-semibold text-slate-900">
        Plantilla y audiencia
      </h2>
      <dl className="mt-3 grid gap-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-500">Plantilla</dt>
          <dd className="mt-0.5 font-medium text-slate-900">
            {template.name} ({template.language})
          </dd>
          <dd className="text-slate-600">{CATEGORY_LABELS[template.category]}</dd>
          {template.parameters.map((p, i) => (
            <dd key={i} className="break-words text-slate-600">
              {`{{${i + 1}}}`} = {p}
            </dd>
          ))}
        </div>
        <div>
          <dt className="text-slate-500">Audiencia</dt>
          {audienceLines(broadcast, labels, ads, timeZone).map((line) => (
            <dd key={line} className="mt-0.5 text-slate-900">
              {line}
            </dd>
          ))}
        </div>
        <div>
          <dt className="text-slate-500">Envío</dt>
          <dd className="mt-0.5 text-slate-900">{whenOf(broadcast, timeZone)}</dd>
        </div>
      </dl>
    </section>
  );
}
