import { useEffect, useState } from "react";
import { toastFailed } from "~/lib/outcome";
import type { AdsReport } from "../../../contracts/ads";
import { Button } from "~/components/ui/button";
import { client, data } from "~/lib/api";
import { AdsTable } from "./ads-table";

/** Rows of grey bars while the report loads (it may ask Meta for the spend first). */
function AdsSkeleton() {
  return (
    <div role="status" aria-label="Cargando anuncios..." className="space-y-3 p-5">
      {[0, 1, 2, 3].map((row) => (
        <div key={row} aria-hidden className="h-8 animate-pulse rounded bg-slate-100" />
      ))}
    </div>
  );
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <p className="m-4 mb-0 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">{children}</p>
  );
}

/** The Anuncios tab: `GET /tracking/ads` for the page's date range. */
export function AdsPanel({ from, to }: { from: string; to: string }) {
  const [report, setReport] = useState<AdsReport | null>(null);
  const [failed, setFailed] = useState(false);
  /** Bumped by 'Reintentar' to load the same range again. */
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (from > to) return;
    // An answer for a range the person has already left is dropped.
    let current = true;
    setReport(null);
    setFailed(false);
    data(client.tracking.ads.$get({ query: { date_from: from, date_to: to } }))
      .then((answer) => {
        if (current) setReport(answer);
      })
      .catch((error: unknown) => {
        if (!current) return;
        setFailed(true);
        toastFailed("Error al cargar los anuncios", error);
      });
    return () => {
      current = false;
    };
  }, [from, to, attempt]);

  let body: React.ReactNode;
  if (failed) {
    body = (
      <div className="flex flex-col items-center gap-3 p-6 text-sm text-slate-600">
        <p>No se pudieron cargar los anuncios.</p>
        <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
          Reintentar
        </Button>
      </div>
    );
  } else if (!report) {
    body = <AdsSkeleton />;
  } else if (report.ads.length === 0) {
    body = (
      <p className="p-6 text-center text-sm text-slate-600">
        Ningún anuncio trajo conversaciones en estas fechas.
      </p>
    );
  } else {
    body = (
      <>
        {report.spend_error && (
          <Notice>
            Meta no respondió al pedirle el gasto: el gasto que ves es el último que se leyó de
            Meta. ({report.spend_error})
          </Notice>
        )}
        {report.ads.every((ad) => ad.spend === null) && (
          <Notice>
            Conecta una cuenta publicitaria en Configuración &gt; Meta Business para ver el gasto y
            el ROAS.
          </Notice>
        )}
        {report.message_cost_error && (
          <Notice>
            Meta no respondió al pedirle el coste de los mensajes: el coste que ves es el último que
            se leyó. ({report.message_cost_error})
          </Notice>
        )}
        {report.message_cost_total === null && (
          <Notice>
            Meta aún no ha dado el coste de algunos mensajes (tarda unas horas): donde falta, el
            coste de mensajes se muestra como «—».
          </Notice>
        )}
        <AdsTable ads={report.ads} currency={report.currency} />
      </>
    );
  }

  return (
    <section
      className="rounded-xl border border-slate-200 bg-white"
      aria-labelledby="ads-heading"
      aria-busy={!report && !failed}
    >
      <h2 id="ads-heading" className="p-5 pb-0 font-semibold">
        Anuncios que trajeron conversaciones
      </h2>
      {body}
    </section>
  );
}
