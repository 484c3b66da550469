import { useSearchParams } from "react-router";
import { ConnectionResult } from "~/components/connection-result";
import type { Route } from "./+types/oauth-error";

/** The error popup stays open longer than the success one: 10 s. */
const CLOSE_AFTER_SECONDS = 10;

const EVENTS_MANAGER_URL = "https://business.facebook.com/events_manager2";

interface ErrorText {
  title: string;
  description: string;
}

/** Codes the connection flow reports, with the text shown for each. */
const ERROR_TEXTS = new Map<string, ErrorText>([
  [
    "no_code",
    {
      title: "Autorización incompleta",
      description:
        "Meta no devolvió un código de autorización. Vuelve a iniciar la conexión desde Configuración.",
    },
  ],
  [
    "token_exchange_failed",
    {
      title: "No se pudo validar la autorización",
      description:
        "No pudimos canjear el código de Meta por un token de acceso. Es posible que haya caducado; inténtalo de nuevo.",
    },
  ],
  [
    "no_pixel_found",
    {
      title: "No se encontró ningún píxel",
      description:
        "Tu cuenta publicitaria no tiene ningún píxel de Meta. Crea uno en el Administrador de eventos y vuelve a conectar.",
    },
  ],
  [
    "no_pixel",
    {
      title: "Falta el píxel de Meta",
      description:
        "No se seleccionó ningún píxel durante la conexión. Comparte un píxel con Atiende al autorizar y vuelve a intentarlo.",
    },
  ],
  [
    "save_failed",
    {
      title: "No se pudo guardar la conexión",
      description:
        "La autorización fue correcta, pero no pudimos guardar la configuración. Inténtalo de nuevo en unos minutos.",
    },
  ],
  [
    "invalid_state",
    {
      title: "Solicitud de conexión no válida",
      description:
        "La solicitud caducó o no corresponde a tu sesión. Por seguridad, vuelve a iniciar la conexión desde Configuración.",
    },
  ],
  [
    "no_permissions",
    {
      title: "Permisos insuficientes",
      description:
        "No se otorgaron los permisos necesarios. Vuelve a conectar y acepta todos los permisos que solicita Atiende.",
    },
  ],
  [
    "access_denied",
    {
      title: "Acceso denegado",
      description:
        "Rechazaste la solicitud de acceso de Meta. Para conectar tu cuenta, vuelve a intentarlo y acepta la solicitud.",
    },
  ],
  [
    "user_cancelled",
    {
      title: "Conexión cancelada",
      description:
        "Autorización cancelada por el usuario. Puedes volver a conectar Meta Business cuando quieras.",
    },
  ],
]);

const GENERIC_TITLE = "Error de conexión";
const GENERIC_DESCRIPTION =
  "Ocurrió un error al conectar con Meta Business. Vuelve a intentarlo desde Configuración.";

export const meta: Route.MetaFunction = () => [{ title: "Error de conexión — Atiende" }];

export default function OauthError() {
  const [searchParams] = useSearchParams();
  const code = searchParams.get("error")?.trim() || null;
  const detail = searchParams.get("error_description")?.trim() || null;
  const known = code ? ERROR_TEXTS.get(code) : undefined;

  return (
    <ConnectionResult
      tone="error"
      title={known?.title ?? GENERIC_TITLE}
      seconds={CLOSE_AFTER_SECONDS}
    >
      <p>{known?.description ?? detail ?? GENERIC_DESCRIPTION}</p>
      {known && detail && <p className="text-sm">Detalle: {detail}</p>}
      {code && (
        <p className="text-sm">
          Código de error:{" "}
          <code className="rounded bg-slate-100 px-1.5 py-0.5 break-all text-slate-800">
            {code}
          </code>
        </p>
      )}
      <p className="text-sm">
        <a
          href={EVENTS_MANAGER_URL}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-emerald-700 underline underline-offset-2 hover:text-emerald-800"
        >
          Abrir el Administrador de eventos de Meta
          <span className="sr-only"> (se abre en una pestaña nueva)</span>
        </a>
      </p>
    </ConnectionResult>
  );
}
