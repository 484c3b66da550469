import { PageHeader } from "~/components/page-header";
import { UserTab } from "~/components/settings/user-tab";

export const meta = () => [{ title: "Configuración de Usuario — Atiende" }];

/** Nothing to load: the profile is the session's (app/lib/auth.tsx); the export is on demand. */
export default function UserSettings() {
  return (
    <>
      <PageHeader title="Configuración de Usuario" />
      <UserTab />
    </>
  );
}
