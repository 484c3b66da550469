import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { useRevalidator, useSearchParams, type ShouldRevalidateFunction } from "react-router";
import { PageHeader } from "~/components/page-header";
import { nothingToReadAgain } from "~/components/settings/actions";
import { loadConnectionTabs, loadOrganizationTab } from "~/components/settings/data";
import { MetaBusinessTab } from "~/components/settings/meta-business-tab";
import { OrganizationTab } from "~/components/settings/organization-tab";
import { PaymentsTab } from "~/components/settings/payments-tab";
import { TrackingTab } from "~/components/settings/tracking-tab";
import { UserTab } from "~/components/settings/user-tab";
import { settingsClientAction } from "./settings-action";
import { RouteError } from "~/components/route-error";
import { revalidateUnlessOnly } from "~/lib/revalidate";
import type { Route } from "./+types/settings";

export const meta = () => [{ title: "Configuración — Atiende" }];

/** The tabs, each with the key it has in the URL (`?tab=`); the first is the default. */
const TABS = [
  { key: "meta", label: "Meta Business" },
  { key: "tracking", label: "Tracking" },
  { key: "cobros", label: "Agenda y cobros" },
  { key: "usuario", label: "Usuario" },
  { key: "organizacion", label: "Organización" },
] as const;

/** Every tab's data at once, each tab with its own failure: switching tabs loads nothing. */
export async function clientLoader() {
  const [connections, organization] = await Promise.all([
    loadConnectionTabs(),
    loadOrganizationTab(),
  ]);
  return { ...connections, organization };
}
// The token lives in localStorage: the settings are loaded in the browser, even on first load.
clientLoader.hydrate = true as const;

/**
 * Another tab shows what is already loaded; a change (a revalidation) reads it all again, but
 * for a Meta card's check and the account's deletion (`nothingToReadAgain`).
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  nothingToReadAgain(args.actionResult) ? false : revalidateUnlessOnly("tab")(args);

/** Every change of the settings is made here (settings-action.ts); the tabs are read again after. */
export const clientAction = settingsClientAction;

export function ErrorBoundary() {
  return <RouteError title="Configuración" failure="No se pudo cargar la configuración" />;
}

export default function Settings({ loaderData: loaded }: Route.ComponentProps) {
  const [params, setParams] = useSearchParams();
  // After a change the tabs are read again: what is shown stays, marked as being refreshed.
  const refreshing = useRevalidator().state === "loading";
  // The tab lives in the URL: reload, links and Back keep it.
  const tab = Math.max(
    0,
    TABS.findIndex(({ key }) => key === params.get("tab")),
  );

  function selectTab(index: number) {
    const next = new URLSearchParams(params);
    next.set("tab", TABS[index]!.key);
    setParams(next, { preventScrollReset: true });
  }

  return (
    <>
      <PageHeader title="Configuración" />
      <TabGroup selectedIndex={tab} onChange={selectTab} aria-busy={refreshing}>
        <TabList className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
          {TABS.map(({ key, label }) => (
            <Tab
              key={key}
              className="whitespace-nowrap border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 data-[selected]:border-emerald-600 data-[selected]:text-emerald-700"
            >
              {label}
            </Tab>
          ))}
        </TabList>
        <TabPanels>
          <TabPanel>
            <MetaBusinessTab loaded={loaded.meta} />
          </TabPanel>
          <TabPanel>
            <TrackingTab loaded={loaded.tracking} />
          </TabPanel>
          <TabPanel>
            <PaymentsTab loaded={loaded.payments} />
          </TabPanel>
          <TabPanel>
            <UserTab />
          </TabPanel>
          <TabPanel>
            <OrganizationTab loaded={loaded.organization} />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </>
  );
}
