import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  console.warn("404", pathname);
  return data({ pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "404: Page not found — Atiende" }];

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return (
    <main
      lang="en"
      className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-16 text-center"
    >
      <p className="text-7xl font-extrabold tracking-tight text-emerald-600 sm:text-8xl">404</p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl">Oops! Page not found</h1>
      <p className="mt-3 max-w-md break-words text-slate-600">
        There is nothing at{" "}
        <code className="rounded bg-slate-200 px-1.5 py-0.5 text-sm">{loaderData.pathname}</code>.
      </p>
      <Link
        to="/"
        className="mt-8 inline-flex items-center gap-2 rounded-lg bg-emerald-700 px-5 py-2.5 text-sm font-medium text-white transition-colors hover:bg-emerald-800"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
          <path
            fillRule="evenodd"
            d="M9.293 2.293a1 1 0 0 1 1.414 0l7 7A1 1 0 0 1 17 11h-1v6a1 1 0 0 1-1 1h-3a1 1 0 0 1-1-1v-3H9v3a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1v-6H3a1 1 0 0 1-.707-1.707l7-7Z"
            clipRule="evenodd"
          />
        </svg>
        Return to Home
      </Link>
    </main>
  );
}
