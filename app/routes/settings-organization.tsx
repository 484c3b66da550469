import { PageHeader } from "~/components/page-header";
import { QuickRepliesSection } from "~/components/settings/quick-replies-section";
import { OrganizationSettingsForm } from "~/components/settings/organization-settings-form";

export const meta = () => [{ title: "Configuración de Organización — Atiende" }];

export default function OrganizationSettings() {
  return (
    <>
      <PageHeader title="Configuración de Organización" />
      <OrganizationSettingsForm />
      <QuickRepliesSection />
    </>
  );
}
