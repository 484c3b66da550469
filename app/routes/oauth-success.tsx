import { useSearchParams } from "react-router";
import { ConnectionResult } from "~/components/connection-result";
import type { Route } from "./+types/oauth-success";

/** The success popup closes itself after 5 s. */
const CLOSE_AFTER_SECONDS = 5;

export const meta: Route.MetaFunction = () => [{ title: "Conexión Exitosa — Atiende" }];

export default function OauthSuccess() {
  const [searchParams] = useSearchParams();
  const phone = searchParams.get("phone")?.trim();

  return (
    <ConnectionResult tone="success" title="Conexión Exitosa" seconds={CLOSE_AFTER_SECONDS}>
      <p>Tu cuenta de Meta Business se conectó correctamente.</p>
      {phone ? (
        <p>
          Número de WhatsApp conectado:{" "}
          <span dir="ltr" className="font-semibold text-slate-900 tabular-nums">
            {phone}
          </span>
        </p>
      ) : (
        <p>Ya puedes gestionar tus conversaciones de WhatsApp desde Atiende.</p>
      )}
    </ConnectionResult>
  );
}
