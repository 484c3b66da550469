import { useRevalidator } from "react-router";
import { PageHeader } from "~/components/page-header";
import { loadOrganizationTab } from "~/components/settings/data";
import { OrganizationTab } from "~/components/settings/organization-tab";
import { settingsClientAction } from "./settings-action";
import { RouteError } from "~/components/route-error";
import type { Route } from "./+types/settings-organization";

export const meta = () => [{ title: "Configuración de Organización — Atiende" }];

export async function clientLoader() {
  return loadOrganizationTab();
}
// The token lives in localStorage: the settings are loaded in the browser, even on first load.
clientLoader.hydrate = true as const;

/** Every change of the settings is made here (settings-action.ts); the tabs are read again after. */
export const clientAction = settingsClientAction;

export function ErrorBoundary() {
  return (
    <RouteError
      title="Configuración de Organización"
      failure="No se pudo cargar la configuración"
    />
  );
}

export default function OrganizationSettings({ loaderData: loaded }: Route.ComponentProps) {
  // After a change the sections are read again: what is shown stays, marked as being refreshed.
  const refreshing = useRevalidator().state === "loading";
  return (
    <>
      <PageHeader title="Configuración de Organización" />
      <div aria-busy={refreshing}>
        <OrganizationTab loaded={loaded} />
      </div>
    </>
  );
}
