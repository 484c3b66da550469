import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { PageHeader } from "~/components/page-header";
import { MetaBusinessTab } from "~/components/settings/meta-business-tab";
import { OrganizationTab } from "~/components/settings/organization-tab";
import { TrackingTab } from "~/components/settings/tracking-tab";
import { UserTab } from "~/components/settings/user-tab";

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
            <MetaBusinessTab />
          </TabPanel>
          <TabPanel>
            <TrackingTab />
          </TabPanel>
          <TabPanel>
            <UserTab />
          </TabPanel>
          <TabPanel>
            <OrganizationTab />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </>
  );
}
