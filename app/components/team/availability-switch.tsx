import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Switch } from "~/components/ui/switch";
import { useAuth } from "~/lib/auth";

/**
 * The member's own availability, as the inbox route's action sets it (it feeds the inbox's
 * round robin; `routes/conversation-action.ts`), submitted from whichever screen is open.
 */
export type AvailabilityChange = { intent: "availability.set"; userId: string; available: boolean };

export interface AvailabilityResult {
  ok: boolean;
  intent: "availability.set";
  available: boolean;
}

/**
 * The member's own "Disponible" / "Ausente": round robin gives conversations only to those
 * available. Read with the session (`/auth/me`); while the change is on its way the switch
 * shows it (the fetcher's pending change), and the session keeps it once it is made.
 */
export function AvailabilitySwitch() {
  const { user, available, setAvailable } = useAuth();
  const fetcher = useFetcher<AvailabilityResult>();
  const keep = useRef(setAvailable);
  keep.current = setAvailable;
  useEffect(() => {
    if (fetcher.data?.ok) keep.current(fetcher.data.available);
  }, [fetcher.data]);
  if (!user || available === null) return null;

  const asked =
    fetcher.state === "idle" ? undefined : (fetcher.json as AvailabilityChange | undefined);
  const shown = asked?.available ?? available;
  const change = (next: boolean) => {
    const submitted: AvailabilityChange = {
      intent: "availability.set",
      userId: user.id,
      available: next,
    };
    void fetcher.submit(submitted, {
      method: "post",
      encType: "application/json",
      action: "/conversations",
    });
  };

  return (
    <div className="mt-2">
      <Switch
        tone="dark"
        checked={shown}
        onChange={change}
        label={shown ? "Disponible" : "Ausente"}
      />
    </div>
  );
}
