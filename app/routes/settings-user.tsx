import { PageHeader } from "~/components/page-header";
import { UserTab } from "~/components/settings/user-tab";
import { settingsClientAction } from "./settings-action";

export const meta = () => [{ title: "Configuración de Usuario — Atiende" }];

/** The profile changes here (settings-action.ts), as on the Configuración screen's Usuario tab. */
export const clientAction = settingsClientAction;

/** Nothing to load: the profile is the session's (app/lib/auth.tsx); the export is on demand. */
export default function UserSettings() {
  return (
    <>
      <PageHeader title="Configuración de Usuario" />
      <UserTab />
    </>
  );
}
