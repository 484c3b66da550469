import { useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "sonner";
import { useLoadFailureToast, type ConnectionTabs } from "~/components/settings/data";
import { LOAD_ERROR, LoadFailure } from "~/components/settings/load-failure";
import { PixelCard } from "~/components/settings/meta/pixel-card";
import { useFacebookSdk } from "~/components/settings/meta/use-facebook-sdk";
import { WhatsappCard } from "~/components/settings/meta/whatsapp-card";
import { Button } from "~/components/ui/button";
import { client, data as answer, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { loginForBusiness, SDK_MESSAGES } from "~/lib/facebook-sdk";

/** Settings → Meta Business: WhatsApp Business and Meta Pixel through one Facebook Login. */
export function MetaBusinessTab({ loaded }: { loaded: ConnectionTabs["meta"] }) {
  const auth = useAuth();
  const canManage = auth.role === "owner" || auth.role === "admin";
  const [connecting, setConnecting] = useState(false);
  const { revalidate } = useRevalidator();
  useLoadFailureToast(loaded, LOAD_ERROR);
  const data = loaded.ok ? loaded.data : null;
  useLoadFailureToast(data?.agents ?? null, "Error al cargar los agentes");
  const appId = data?.appConfig.app_id ?? null;
  // Only those who may connect need the SDK.
  // The sandbox's Meta is a local fake: there is no Facebook window to load.
  const sandbox = data?.appConfig.sandbox ?? false;
  const sdk = useFacebookSdk(canManage && !sandbox ? appId : null, data?.appConfig.graph_version);

  async function connect() {
    if (!data || connecting) return;
    setConnecting(true);
    try {
      // Called before any await: the browser only opens the popup from the click itself.
      const login = await loginForBusiness(data.appConfig.config_id);
      const [whatsapp, pixel] = await Promise.allSettled([
        answer(
          client.whatsapp.oauth.exchange.$post({
            json: {
              code: login.code,
              ...(login.wabaId ? { waba_id: login.wabaId } : {}),
              ...(login.phoneNumberId ? { phone_number_id: login.phoneNumberId } : {}),
            },
          }),
        ),
        answer(client["meta-config"].connect.$post({ json: { code: login.code } })),
      ]);

      if (whatsapp.status === "rejected" && pixel.status === "rejected") {
        toast.error("No se pudo conectar ningún servicio de Meta Business", {
          description: errorMessage(whatsapp.reason),
        });
        return;
      }
      const connected = [
        whatsapp.status === "fulfilled" && `WhatsApp (${whatsapp.value.phone_number})`,
        pixel.status === "fulfilled" && `Meta Pixel (${pixel.value.pixel_id})`,
      ].filter(Boolean);
      toast.success("Conectado con Meta Business", { description: connected.join(" y ") });
      if (whatsapp.status === "rejected") {
        toast.warning("No se pudo conectar WhatsApp", {
          description: errorMessage(whatsapp.reason),
        });
      }
      if (pixel.status === "rejected") {
        toast.warning("No se pudo conectar Meta Pixel", {
          description: errorMessage(pixel.reason),
        });
      }
      // Both connections are read again, without the full-screen spinner.
      await revalidate();
    } catch (error) {
      toast.error(
        error instanceof Error && error.message
          ? error.message
          : "Error al conectar con Meta Business",
      );
    } finally {
      setConnecting(false);
    }
  }

  if (!loaded.ok) return <LoadFailure message={loaded.error} />;

  const { whatsapp, pixel, appConfig } = loaded.data;
  const agents = loaded.data.agents.ok ? loaded.data.agents.data : [];
  const loginAvailable = appConfig.app_id !== null && !appConfig.sandbox;

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
            <Button
              onClick={() => void connect()}
              disabled={sdk !== "ready" || connecting}
              aria-busy={connecting || sdk === "loading"}
              className="shrink-0"
            >
              {connecting && (
                <span
                  aria-hidden
                  className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent"
                />
              )}
              Conectar con Meta Business
            </Button>
          )}
        </div>

        <div className="space-y-2 text-sm [&:not(:empty)]:mt-3" aria-live="polite">
          {canManage && loginAvailable && sdk === "loading" && (
            <p className="text-slate-500">Cargando el SDK de Facebook...</p>
          )}
          {connecting && (
            <p className="text-slate-600">
              Conectando con Meta Business... Completa los pasos en la ventana de Facebook.
            </p>
          )}
        </div>
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
          agents={agents}
          canManage={canManage}
          connecting={connecting}
          manualFirst={!loginAvailable}
          onChanged={revalidate}
        />
        <PixelCard
          config={pixel}
          canManage={canManage}
          connecting={connecting}
          loginAvailable={loginAvailable}
          onChanged={revalidate}
        />
      </div>
    </div>
  );
}
