import { useState } from "react";
import { Link } from "react-router";
import { useLoadFailureToast, type ConnectionTabs } from "~/components/settings/data";
import { LOAD_ERROR, LoadFailure } from "~/components/settings/load-failure";
import { CopyableValue } from "~/components/settings/meta/copy-button";
import { StatusBadge, toConnectionStatus } from "~/components/settings/meta/status-badge";
import { useOrigin } from "~/components/settings/meta/use-origin";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { useAuth } from "~/lib/auth";
import { live } from "~/lib/live-store";
import { useLiveVersion } from "~/lib/use-live";
import { useSettingsChange } from "~/components/settings/actions";

/** The copy-paste snippet of a business's landing pages (the script is served by the app). */
export function trackingSnippet(origin: string, trackingKey: string) {
  return `<script src="${origin}/t.js" data-key="${trackingKey}" async></script>`;
}

/** Settings → Tracking: Meta status, the WhatsApp number and how conversions are tracked. */
export function TrackingTab({ loaded }: { loaded: ConnectionTabs["tracking"] }) {
  const auth = useAuth();
  const organization = auth.organization!;
  const origin = useOrigin();
  useLoadFailureToast(loaded, LOAD_ERROR);
  // Meta disconnected or reconnected the number (`whatsapp_status`): the badge shows the status
  // the live store recorded after the tab's read, over the one it read, as the Meta tab does.
  useLiveVersion();
  if (!loaded.ok) return <LoadFailure message={loaded.error} />;

  const { pixel, whatsapp, asked } = loaded.data;
  const pixelStatus = toConnectionStatus(pixel?.status);
  const whatsappStatus = toConnectionStatus(
    live.whatsappStatusSince(asked)?.status ?? whatsapp.status,
  );
  const metaConnected = pixelStatus === "connected" || whatsappStatus === "connected";

  return (
    <div className="max-w-3xl space-y-6">
      <section
        aria-labelledby="tracking-status-title"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <h2 id="tracking-status-title" className="font-semibold text-slate-900">
          Estado de Meta
        </h2>
        <ul className="mt-4 divide-y divide-slate-100">
          <li className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">Meta Pixel</p>
              <p className="break-all text-sm text-slate-600">
                {pixel ? `ID del pixel: ${pixel.pixel_id}` : "Sin pixel conectado"}
              </p>
            </div>
            <StatusBadge status={pixelStatus} label="Estado de Meta Pixel" />
          </li>
          <li className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900">Número de WhatsApp</p>
              <p className="break-all text-sm text-slate-600">
                {whatsapp.phone_number ?? "Sin número conectado"}
              </p>
            </div>
            <StatusBadge status={whatsappStatus} label="Estado de WhatsApp" />
          </li>
        </ul>
        {!metaConnected && (
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Conecta Meta Business en la pestaña «Meta Business» para enviar tus conversiones a Meta.
          </p>
        )}
      </section>

      <section
        aria-labelledby="tracking-how-title"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <h2 id="tracking-how-title" className="font-semibold text-slate-900">
          Cómo se registran las conversiones
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-slate-600">
          <li>
            <span className="font-medium text-slate-800">Anuncios de clic a WhatsApp:</span> las
            conversaciones que empiezan desde un anuncio se atribuyen automáticamente a su campaña y
            se envían a Meta. No tienes que instalar nada.
          </li>
          <li>
            <span className="font-medium text-slate-800">Tu web:</span> pega este fragmento en las
            páginas de destino de tus anuncios, antes de{" "}
            <code className="rounded bg-slate-100 px-1 text-xs">&lt;/head&gt;</code>. Registra la
            visita con sus parámetros de campaña (fbclid, utm…), prepara tus enlaces de WhatsApp
            (wa.me) y atribuye la conversación al anuncio del que vino.
          </li>
        </ul>
        <div className="mt-4">
          <CopyableValue
            label="Fragmento de seguimiento"
            value={trackingSnippet(origin, organization.tracking_key)}
            hint="La clave identifica a tu organización. Es pública: solo permite registrar visitas y clics en WhatsApp, nunca leads ni compras."
            multiline
          />
        </div>
        {(auth.role === "owner" || auth.role === "admin") && <RotateKeyButton />}
      </section>

      <div className="flex flex-wrap items-center gap-3">
        <Link
          to="/tracking"
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white transition-colors hover:bg-emerald-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2"
        >
          Ver Analytics
        </Link>
        <span className="text-sm text-slate-500">Sesiones, conversiones, fuentes y campañas.</span>
      </div>
    </div>
  );
}

/** Owners and admins replace the public key, e.g. when a copy is being misused elsewhere. */
function RotateKeyButton() {
  const auth = useAuth();
  const [confirming, setConfirming] = useState(false);
  // The session's copy of the organization takes the new key; the question closes.
  const rotator = useSettingsChange((result) => {
    if (!result.ok || result.trackingKey === undefined) return;
    auth.setOrganization({ ...auth.organization!, tracking_key: result.trackingKey });
    setConfirming(false);
  });
  const busy = rotator.busy;
  const rotate = () => rotator.submit({ intent: "tracking-key.rotate" });

  return (
    <>
      <Button variant="secondary" className="mt-4" onClick={() => setConfirming(true)}>
        Regenerar clave
      </Button>
      <ConfirmDialog
        open={confirming}
        title="¿Regenerar la clave de tracking?"
        description="La clave actual dejará de funcionar al momento en todas las páginas que la usan: hasta que pegues el fragmento nuevo en cada una, no registrarán visitas ni clics."
        confirmLabel="Regenerar clave"
        busyLabel="Regenerando..."
        busy={busy}
        onConfirm={() => void rotate()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
