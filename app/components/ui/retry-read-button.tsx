import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * A person asks for the screen's data again: "Reintentar" where a read failed or found nothing
 * yet, "Actualizar" on a preview computed as it was read. The route's loaders read again. One of
 * the two ways a page reads its data again by hand (decision 0145); the other is realtime's
 * coalesced reload (`useCoalescedRevalidate`), and after a change the router does it.
 * `onRetry` runs first (what the screen shows meanwhile); `busyLabel` is said while it reads.
 */
export function RetryReadButton({
  label = "Reintentar",
  busyLabel = label,
  onRetry,
  className,
}: {
  label?: string;
  busyLabel?: string;
  onRetry?: () => void;
  className?: string;
}) {
  const revalidator = useRevalidator();
  const reading = revalidator.state !== "idle";
  return (
    <Button
      variant="secondary"
      className={className}
      disabled={reading}
      onClick={() => {
        onRetry?.();
        void revalidator.revalidate();
      }}
    >
      {reading ? busyLabel : label}
    </Button>
  );
}
