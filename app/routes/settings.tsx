import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { PageHeader } from "~/components/page-header";
import { OrganizationSettingsForm } from "~/components/settings/organization-settings-form";
import { UserSettingsForm } from "~/components/settings/user-settings-form";

export const meta = () => [{ title: "Configuración — Atiende" }];

const TABS = ["Meta Business", "Tracking", "Usuario", "Organización"] as const;

export default function Settings() {
  return (
    <>
      <PageHeader title="Configuración" />
      <TabGroup>
        <TabList className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
          {TABS.map((label) => (
            <Tab
              key={label}
              className="whitespace-nowrap border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 data-[selected]:border-emerald-600 data-[selected]:text-emerald-700"
            >
              {label}
            </Tab>
          ))}
        </TabList>
        <TabPanels>
          <TabPanel>
            <UpcomingPanel
              title="Conexión con Meta Business"
              text="Aquí conectarás tu número de WhatsApp Business y tu Pixel de Meta con un solo inicio de sesión de Facebook, los probarás y elegirás el agente de IA que atiende por defecto. Esta conexión aún no está disponible en esta versión."
            />
          </TabPanel>
          <TabPanel>
            <UpcomingPanel
              title="Tracking de conversiones"
              text="Aquí verás el estado de Meta, tu número de WhatsApp y el fragmento de código para registrar en tu web las visitas que llegan desde tus anuncios. El tracking aún no está disponible en esta versión."
            />
          </TabPanel>
          <TabPanel>
            <UserSettingsForm />
          </TabPanel>
          <TabPanel>
            <OrganizationSettingsForm />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </>
  );
}

function UpcomingPanel({ title, text }: { title: string; text: string }) {
  return (
    <section className="max-w-2xl rounded-xl border border-dashed border-slate-300 bg-white p-6">
      <h2 className="font-semibold text-slate-900">{title}</h2>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
    </section>
  );
}
