import { PageHeader } from "~/components/page-header";
import { OrganizationTab } from "~/components/settings/organization-tab";

export const meta = () => [{ title: "Configuración de Organización — Atiende" }];

export default function OrganizationSettings() {
  return (
    <>
      <PageHeader title="Configuración de Organización" />
      <OrganizationTab />
    </>
  );
}
