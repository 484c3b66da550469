import { useEffect, useState } from "react";
import type { Slot } from "../../../contracts/bookings";
import { formatZonedTime } from "~/components/broadcasts/zoned-time";
import { SelectField } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";

type Slots =
  | { state: "idle" | "loading" }
  | { state: "ready"; slots: Slot[]; notice?: string }
  | { state: "failed"; error: string };

/**
 * "Hora": the free starts of `serviceId` on `date` (and `staffId`'s, if chosen), read from
 * `GET /bookings/availability` whenever one of them changes.
 */
export function SlotField({
  serviceId,
  date,
  staffId,
  timeZone,
  value,
  onChange,
  error,
  disabled,
}: {
  serviceId: string;
  date: string;
  staffId: string;
  timeZone: string;
  value: string;
  onChange: (start: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  const [slots, setSlots] = useState<Slots>({ state: "idle" });
  useEffect(() => {
    if (!serviceId || !date) return setSlots({ state: "idle" });
    let current = true;
    setSlots({ state: "loading" });
    data(
      client.bookings.availability.$get({
        query: {
          service_id: serviceId,
          from: date,
          to: date,
          ...(staffId && { staff_user_id: staffId }),
        },
      }),
    ).then(
      // `notice`: Google Calendar could not be read; the slots are the own calendar's.
      (found) => current && setSlots({ state: "ready", slots: found.slots, notice: found.notice }),
      (failure: unknown) => current && setSlots({ state: "failed", error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [serviceId, date, staffId]);

  const starts = slots.state === "ready" ? [...new Set(slots.slots.map((s) => s.start))] : [];
  // A start chosen elsewhere (the nearest slots of a refusal) stays listed.
  if (value && !starts.includes(value)) starts.unshift(value);
  const hint =
    slots.state === "loading"
      ? "Buscando huecos libres..."
      : slots.state === "failed"
        ? slots.error
        : slots.state === "ready" && slots.slots.length === 0
          ? "No quedan huecos libres ese día."
          : !serviceId
            ? "Elige primero el servicio."
            : slots.state === "ready"
              ? slots.notice
              : undefined;

  return (
    <SelectField
      label="Hora"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder="Elige una hora"
      options={starts.map((start) => ({ value: start, label: formatZonedTime(start, timeZone) }))}
      error={error}
      hint={hint}
      disabled={disabled || slots.state === "loading"}
    />
  );
}
