import { useRouteError } from "react-router";
import { PageHeader } from "~/components/page-header";
import { errorMessage } from "~/lib/api";

/** The settings screens' route error: the page's title, and why it could not be shown. */
export function SettingsError({ title }: { title: string }) {
  const error = useRouteError();
  return (
    <>
      <PageHeader title={title} />
      <section role="alert" className="rounded-xl border border-red-200 bg-white p-6 text-sm">
        <h2 className="font-semibold text-slate-900">No se pudo cargar la configuración</h2>
        <p className="mt-2 text-slate-600">{errorMessage(error)}</p>
      </section>
    </>
  );
}
