import { useState } from "react";
import type { HistoryImport } from "../../../contracts/whatsapp";
import { toastFailed } from "~/lib/outcome";
import { useSettingsChange } from "~/components/settings/actions";
import { useLoadFailureToast, type ConnectionTabs } from "~/components/settings/data";
import { LOAD_ERROR, LoadFailure } from "~/components/settings/load-failure";
import { furthestImport } from "~/components/settings/meta/history-import";
import { PixelCard } from "~/components/settings/meta/pixel-card";
import { useFacebookSdk } from "~/components/settings/meta/use-facebook-sdk";
import { WhatsappCard } from "~/components/settings/meta/whatsapp-card";
import { Button } from "~/components/ui/button";
import { useAuth } from "~/lib/auth";
import { loginForBusiness, SDK_MESSAGES, SignupError } from "~/lib/facebook-sdk";
import { live } from "~/lib/live-store";
import { useLiveEvent, useLiveVersion } from "~/lib/use-live";

/** Settings → Meta Business: WhatsApp Business and Meta Pixel through one Facebook Login. */
export function MetaBusinessTab({ loaded }: { loaded: ConnectionTabs["meta"] }) {
  const auth = useAuth();
  const canManage = auth.role === "owner" || auth.role === "admin";
  // Which way of connecting is under way: a new number, or one the WhatsApp Business app keeps.
  const [connecting, setConnecting] = useState<"number" | "app" | null>(null);
  // What is left to do when the signup finished without a usable number (decision 0074): shown
  // until the next attempt, as a toast alone would go before it is read.
  const [pending, setPending] = useState<{ title: string; text: string } | null>(null);
  useLoadFailureToast(loaded, LOAD_ERROR);
  // Meta disconnected or reconnected the number (`whatsapp_status`): the card shows the status
  // and reason the live store recorded after the tab's read, over the connection it read.
  useLiveVersion();
  // A shared number's history import, followed here rather than in its card: the import starts
  // while the connection is still being read, before the card shows it.
  const [importEvent, setImportEvent] = useState<HistoryImport | null>(null);
  useLiveEvent<{ history_import: HistoryImport }>("import_progress", ({ history_import }) =>
    setImportEvent((shown) => furthestImport(shown, history_import)),
  );
  const data = loaded.ok ? loaded.data : null;
  useLoadFailureToast(data?.agents ?? null, "Error al cargar los agentes");
  const appId = data?.appConfig.app_id ?? null;
  // Only those who may connect need the SDK.
  // The sandbox's Meta is a local fake: there is no Facebook window to load.
  const sandbox = data?.appConfig.sandbox ?? false;
  const sdk = useFacebookSdk(canManage && !sandbox ? appId : null, data?.appConfig.graph_version);

  // The route's action exchanges the login's code and says how each connection went; the
  // router reads both connections again after it (without the full-screen spinner).
  const exchange = useSettingsChange((result) => {
    if (result.ok) setPending(result.pending ?? null);
  });

  /** `appOnboarding`: "Ya uso este número en la app WhatsApp Business" (contract section 16). */
  async function connect(appOnboarding: boolean) {
    if (!data || connecting) return;
    setConnecting(appOnboarding ? "app" : "number");
    setImportEvent(null);
    setPending(null);
    try {
      // Called before any await: the browser only opens the popup from the click itself.
      const login = await loginForBusiness(data.appConfig.config_id, { appOnboarding });
      // Resolves once the action answered and the connections were read again.
      await exchange.submit({ intent: "meta.connect", login });
    } catch (error) {
      toastFailed(
        error instanceof Error && error.message
          ? error.message
          : "Error al conectar con Meta Business",
        error instanceof SignupError && error.description ? error.description : undefined,
      );
    } finally {
      setConnecting(null);
    }
  }

  if (!loaded.ok) return <LoadFailure message={loaded.error} />;

  const { pixel, appConfig } = loaded.data;
  const announced = live.whatsappStatusSince(loaded.data.asked);
  const whatsapp =
    loaded.data.whatsapp && announced
      ? { ...loaded.data.whatsapp, ...announced }
      : loaded.data.whatsapp;
  const agents = loaded.data.agents.ok ? loaded.data.agents.data : [];
  const loginAvailable = appConfig.app_id !== null && !appConfig.sandbox;
  // The app's number goes through Embedded Signup only: the plain login cannot keep it there.
  const appOnboardingAvailable = loginAvailable && appConfig.config_id !== null;
  const spinner = (
    <span
      aria-hidden
      className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
    />
  );

  return (
    <div className="space-y-6">
      <section
        aria-labelledby="meta-connect-title"
        className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <h2 id="meta-connect-title" className="font-semibold text-slate-900">
              Conexión con Meta Business
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Conecta tu número de WhatsApp Business y tu Pixel de Meta con un solo inicio de sesión
              de Facebook.
            </p>
          </div>
          {canManage && loginAvailable && (
            <div className="flex shrink-0 flex-col gap-2 sm:items-end">
              <Button
                onClick={() => void connect(false)}
                disabled={sdk !== "ready" || connecting !== null}
                aria-busy={connecting === "number" || sdk === "loading"}
              >
                {connecting === "number" && spinner}
                Conectar con Meta Business
              </Button>
              {appOnboardingAvailable && (
                <Button
                  variant="secondary"
                  onClick={() => void connect(true)}
                  disabled={sdk !== "ready" || connecting !== null}
                  aria-busy={connecting === "app"}
                  aria-describedby="meta-connect-app-hint"
                >
                  {connecting === "app" && spinner}
                  Ya uso este número en la app WhatsApp Business
                </Button>
              )}
            </div>
          )}
        </div>
        {canManage && appOnboardingAvailable && (
          <p id="meta-connect-app-hint" className="mt-2 text-xs text-slate-500">
            Si el número ya está en la app WhatsApp Business de tu móvil, sigue usándolo allí: la
            consola recibe lo que respondas desde el móvil e importa tus contactos y el historial de
            chats que aceptes compartir.
          </p>
        )}

        <div className="space-y-2 text-sm [&:not(:empty)]:mt-3" aria-live="polite">
          {canManage && loginAvailable && sdk === "loading" && (
            <p className="text-slate-500">Cargando el SDK de Facebook...</p>
          )}
          {connecting !== null && (
            <p className="text-slate-600">
              Conectando con Meta Business... Completa los pasos en la ventana de Facebook.
            </p>
          )}
        </div>
        {pending && (
          <div
            role="status"
            aria-label={pending.title}
            className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          >
            <p className="font-semibold">{pending.title}</p>
            <p className="mt-1">{pending.text}</p>
          </div>
        )}
        {canManage && loginAvailable && sdk === "error" && (
          <p role="alert" className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {SDK_MESSAGES.loadFailed}
          </p>
        )}
        {canManage && loginAvailable && !appConfig.config_id && (
          <p className="mt-2 text-xs text-slate-500">
            Falta META_CONFIG_ID en el servidor: se usará el inicio de sesión de Facebook sin el
            registro integrado de WhatsApp.
          </p>
        )}
        {!loginAvailable && !appConfig.sandbox && (
          <div
            role="note"
            className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          >
            <p className="font-semibold">La app de Meta no está configurada en el servidor</p>
            <p className="mt-1">
              Para conectar con un solo inicio de sesión de Facebook, quien administra el servidor
              debe definir <code className="font-mono text-xs">META_APP_ID</code>,{" "}
              <code className="font-mono text-xs">META_APP_SECRET</code> y{" "}
              <code className="font-mono text-xs">META_CONFIG_ID</code>. Mientras tanto puedes
              conectar WhatsApp manualmente con los datos de tu propia app de Meta.
            </p>
          </div>
        )}
        {appConfig.sandbox && (
          <p
            role="note"
            className="mt-4 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900"
          >
            Estás en la sandbox local: aquí no hay ventana de Facebook. Conecta el número y el píxel
            de prueba con{" "}
            <code className="font-mono text-xs">
              npm run sandbox -- connect &lt;email&gt; &lt;contraseña&gt;
            </code>
            , o como un número que sigue en la app WhatsApp Business (con sus contactos y un
            historial de prueba) con{" "}
            <code className="font-mono text-xs">
              npm run sandbox -- connect --app &lt;email&gt; &lt;contraseña&gt;
            </code>
            .
          </p>
        )}
        {!canManage && (
          <p className="mt-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
            Solo los propietarios y administradores pueden conectar o desconectar servicios.
          </p>
        )}
      </section>

      <div className="grid items-start gap-6 xl:grid-cols-2">
        <WhatsappCard
          config={whatsapp}
          historyImport={
            whatsapp?.coexistence ? furthestImport(whatsapp.history_import, importEvent) : null
          }
          agents={agents}
          canManage={canManage}
          connecting={connecting !== null}
          manualFirst={!loginAvailable}
        />
        <PixelCard
          config={pixel}
          canManage={canManage}
          connecting={connecting !== null}
          loginAvailable={loginAvailable}
        />
      </div>
    </div>
  );
}
