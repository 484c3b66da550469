import type { ConversationOrigin } from "../../../contracts/sales";
import { formatRelative } from "~/lib/format";

/** Only web links open from the console: a `javascript:` or `data:` URL is never a link. */
const isWebLink = (url: string | null): url is string => {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
};

/** Where the customer came from: the ad they clicked or the landing-page visit they made. */
export function OriginCard({ origin }: { origin: ConversationOrigin | null }) {
  if (!origin) return <p className="text-sm text-slate-600">Origen desconocido</p>;
  if (origin.type === "visit") {
    return (
      <p className="text-sm text-slate-700">
        Visita web: {origin.source || "Directo"} · {origin.campaign || "N/A"}
        <span className="block text-xs text-slate-500">{formatRelative(origin.visited_at)}</span>
      </p>
    );
  }
  return (
    <div className="text-sm text-slate-700">
      <p>Anuncio: {origin.headline || origin.ad_id || "sin título"}</p>
      <p className="mt-1 flex flex-wrap gap-x-2 text-xs text-slate-500">
        {isWebLink(origin.source_url) && (
          <a
            href={origin.source_url}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-emerald-700 underline"
          >
            Ver anuncio
          </a>
        )}
        <span>{formatRelative(origin.clicked_at)}</span>
      </p>
    </div>
  );
}
