import { Spinner } from "~/components/ui/spinner";

/**
 * A console screen's loading state as the server sends it, before the browser has read the
 * session and the screen's data (the console layout shows it while the session is read too).
 * `entry.client.tsx` takes it out just before hydrating: by then the data has usually been
 * read and the browser renders the screen itself, and React leaves in <body> any node it did
 * not render (browser extensions put theirs there), so the spinner stayed above the screen.
 */
export function ServerFallback({ label }: { label?: string }) {
  return (
    <div data-server-fallback="">
      <Spinner label={label} />
    </div>
  );
}

/** Removes what `ServerFallback` rendered on the server (called once, before hydration). */
export function removeServerFallbacks() {
  for (const node of document.querySelectorAll("[data-server-fallback]")) node.remove();
}
