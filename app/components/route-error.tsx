import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { PageHeader } from "~/components/page-header";
import { errorMessage } from "~/lib/api";

/**
 * A screen whose data could not be loaded (a route's `ErrorBoundary`): the page's title, what
 * failed and why, and "Reintentar", which runs the route's loaders again.
 */
export function RouteError({
  title,
  description,
  failure,
}: {
  title: string;
  description?: string;
  failure: string;
}) {
  const error = useRouteError();
  const reason = isRouteErrorResponse(error) ? String(error.data) : errorMessage(error);
  return (
    <>
      <PageHeader title={title} description={description} />
      <section role="alert" className="rounded-xl border border-red-200 bg-white p-6 text-sm">
        <h2 className="font-semibold text-slate-900">{failure}</h2>
        <p className="mt-2 text-slate-600">{reason}</p>
        <Link
          to="."
          className="mt-4 inline-block font-medium text-emerald-800 underline hover:text-emerald-900"
        >
          Reintentar
        </Link>
      </section>
    </>
  );
}
