import { PageHeader } from "~/components/page-header";
import { UserTab } from "~/components/settings/user-tab";

export const meta = () => [{ title: "Configuración de Usuario — Atiende" }];

export default function UserSettings() {
  return (
    <>
      <PageHeader title="Configuración de Usuario" />
      <UserTab />
    </>
  );
}
