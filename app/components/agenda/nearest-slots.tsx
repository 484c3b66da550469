import type { Slot } from "../../../contracts/bookings";
import { formatZoned } from "~/components/broadcasts/zoned-time";
import { Button } from "~/components/ui/button";

/** The API's refusal of a taken slot, and the nearest free slots it offers, each one click away. */
export function NearestSlots({
  message,
  slots,
  timeZone,
  onPick,
}: {
  message: string;
  slots: Slot[];
  timeZone: string;
  onPick: (slot: Slot) => void;
}) {
  const starts = [...new Map(slots.map((s) => [s.start, s])).values()];
  return (
    <div role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
      <p>{message}</p>
      {starts.length > 0 && (
        <ul aria-label="Huecos libres más cercanos" className="mt-2 flex flex-wrap gap-2">
          {starts.map((slot) => (
            <li key={slot.start}>
              <Button variant="secondary" className="px-2 py-1" onClick={() => onPick(slot)}>
                {formatZoned(slot.start, timeZone)}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
