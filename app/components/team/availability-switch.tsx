import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { AvailabilityChange, AvailabilityResult } from "~/components/team/actions";
import { Switch } from "~/components/ui/switch";
import { useAuth } from "~/lib/auth";

/**
 * The member's own "Disponible" / "Ausente": round robin gives conversations only to those
 * available. Read with the session (`/auth/me`), written by the root route's action (decision
 * 0145): while it is on its way the switch shows what was asked; once saved the session keeps
 * it; refused, the action says so and the switch shows the session's value again.
 */
export function AvailabilitySwitch() {
  const { user, available, setAvailable } = useAuth();
  const fetcher = useFetcher<AvailabilityResult>();
  const keep = useRef(setAvailable);
  keep.current = setAvailable;
  const saved = fetcher.data;
  useEffect(() => {
    // Each answer once. It comes while the fetcher still carries what it sent (the router
    // reads the screen again after the action): the switch never shows the old value between.
    if (saved?.ok) keep.current(saved.available);
  }, [saved]);
  if (!user || available === null) return null;

  const asked = fetcher.json as AvailabilityChange | undefined;
  const shown = asked?.available ?? available;
  const change = (next: boolean) =>
    void fetcher.submit({ userId: user.id, available: next } satisfies AvailabilityChange, {
      method: "post",
      action: "/",
      encType: "application/json",
    });

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
