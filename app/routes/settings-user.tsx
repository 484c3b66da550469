import { PageHeader } from "~/components/page-header";
import { UserSettingsForm } from "~/components/settings/user-settings-form";

export const meta = () => [{ title: "Configuración de Usuario — Atiende" }];

export default function UserSettings() {
  return (
    <>
      <PageHeader title="Configuración de Usuario" />
      <UserSettingsForm />
    </>
  );
}
