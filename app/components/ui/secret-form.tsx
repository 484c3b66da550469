import type { FormHTMLAttributes } from "react";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * A form that carries a secret (a password, an access token, an invitation). Its fields stay
 * disabled until the console's script has run: submitted natively before that (a slow phone,
 * a page reloaded mid-typing), the browser would send it as a GET with the secret in the
 * address, the history and the server's log. `method="post"` keeps it out of the URL even then.
 */
export function SecretForm({
  children,
  className = "",
  ...props
}: FormHTMLAttributes<HTMLFormElement>) {
  const hydrated = useHydrated();
  // The layout classes go on the fieldset: it holds the fields.
  return (
    <form method="post" {...props}>
      <fieldset disabled={!hydrated} className={`min-w-0 ${className}`}>
        {children}
      </fieldset>
    </form>
  );
}
