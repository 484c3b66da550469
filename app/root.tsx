import "./lib/zod-config";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type LinksFunction,
} from "react-router";
import { Toaster } from "sonner";
import type { Route } from "./+types/root";
import "./app.css";
import { Spinner } from "./components/ui/spinner";
import { AuthProvider } from "./lib/auth";
import { REALTIME_TOASTER } from "./lib/toasters";
import { availabilityClientAction } from "./routes/availability-action";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links nonce={pageNonce()} />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <Toaster
          richColors
          position="top-right"
          closeButton
          offset={{ top: "var(--toasts-top, 24px)" }}
          mobileOffset={{ top: "var(--toasts-top, 16px)" }}
        />
        {/* "Conectado en tiempo real" after a reconnection: over the sidebar's top on a
            laptop, the top bar on a phone; never over a conversation's thread. */}
        <Toaster
          id={REALTIME_TOASTER}
          richColors
          position="top-left"
          closeButton
          offset={{ top: "8px", left: "8px" }}
          mobileOffset={{ top: "4px", left: "8px", right: "8px" }}
        />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/**
 * The page's Content-Security-Policy nonce in the browser. On the server `<Links>` takes it from
 * React Router's context, which the browser's copy lacks: without it the client renders the
 * development server's critical-CSS link without the server's `nonce` and hydration warns.
 * Browsers hide the attribute's value from the DOM but keep it as the `nonce` property.
 */
function pageNonce(): string | undefined {
  if (typeof document === "undefined") return undefined;
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}

/**
 * The console's loading state on a first load, while the screens' `clientLoader`s read the
 * session's data in the browser (the token lives there). It lives in the root because React
 * Router 8.4 splits a route's `HydrateFallback` into a chunk of its own and leaves it out of the
 * hydration script when it shares code with the route: the browser then rendered nothing where
 * the server had rendered the spinner, React 19 skipped the server's node in <body> as if an
 * extension had put it there, and the spinner stayed above the screen. The root is never split.
 */
export function HydrateFallback() {
  return <Spinner />;
}

/**
 * The sidebar's "Disponible" / "Ausente" (decision 0145): the console's layout draws it on every
 * screen, and only the root's action is reached from all of them without loading another module.
 */
export const clientAction = availabilityClientAction;

export default function App() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-4xl font-bold">{status === 404 ? "404" : "Error"}</h1>
      <p className="text-slate-600">
        {status === 404
          ? "Oops! Page not found"
          : "Error interno del servidor. Intenta nuevamente más tarde."}
      </p>
      <a className="text-emerald-700 underline" href="/">
        {status === 404 ? "Return to Home" : "Volver al inicio"}
      </a>
    </main>
  );
}
