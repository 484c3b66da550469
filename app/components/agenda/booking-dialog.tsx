import { useState } from "react";
import type { Booking, Service, Slot } from "../../../contracts/bookings";
import type { Member } from "../../../contracts/members";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { Modal } from "~/components/ui/modal";
import type { AgendaActionResult } from "./actions";
import { dayOfInstant } from "./dates";
import { NearestSlots } from "./nearest-slots";
import { SlotField } from "./slot-field";
import { useAgendaChange } from "./use-agenda-change";

export interface CustomerOption {
  value: string;
  label: string;
}

/** What the dialog does: a new booking (on a day), or a booking moved. */
export type BookingDialogMode =
  { kind: "create"; date: string } | { kind: "move"; booking: Booking };

interface Props {
  mode: BookingDialogMode;
  services: Service[];
  members: Member[];
  customers: CustomerOption[];
  timeZone: string;
  onClose: () => void;
}

/**
 * "Nueva cita" (service, conversation, day and a free time, optional person and note) or
 * "Mover cita" (a new day and time). A slot someone took meanwhile is refused by the API with
 * its message and the nearest free slots, which the dialog offers.
 */
export function BookingDialog({ mode, services, members, customers, timeZone, onClose }: Props) {
  const moving = mode.kind === "move" ? mode.booking : null;
  const [values, setValues] = useState({
    serviceId: moving?.service_id ?? "",
    conversationId: moving?.conversation_id ?? "",
    date: moving ? dayOfInstant(moving.start, timeZone) : mode.kind === "create" ? mode.date : "",
    start: "",
    staffId: moving?.staff_user_id ?? "",
    note: "",
  });
  const [refusal, setRefusal] = useState<Extract<AgendaActionResult, { ok: false }> | null>(null);
  const change = useAgendaChange((result) => (result.ok ? onClose() : setRefusal(result)));
  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({
      ...v,
      [field]: value,
      ...(field !== "start" && field !== "note" && { start: "" }),
    }));
    setRefusal(null);
  };
  const active = services.filter((s) => s.active || s.id === values.serviceId);
  const service = services.find((s) => s.id === values.serviceId);
  const staff = members.filter(
    (m) => !service?.staff_user_ids.length || service.staff_user_ids.includes(m.user_id),
  );
  const errors = refusal?.fieldErrors ?? {};

  function pick(slot: Slot) {
    setValues((v) => ({ ...v, date: dayOfInstant(slot.start, timeZone), start: slot.start }));
    setRefusal(null);
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!values.start) return;
    if (moving) {
      void change.submit({ intent: "booking.move", id: moving.id, start: values.start });
      return;
    }
    void change.submit({
      intent: "booking.create",
      key: crypto.randomUUID(),
      values: {
        service_id: values.serviceId,
        conversation_id: values.conversationId,
        start: values.start,
        staff_user_id: values.staffId || null,
        note: values.note || null,
      },
    });
  }

  return (
    <Modal
      open
      title={moving ? `Mover cita: ${moving.service_name}` : "Nueva cita"}
      onClose={onClose}
      busy={change.busy}
      width="lg"
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        {!moving && (
          <>
            <SelectField
              label="Servicio"
              required
              value={values.serviceId}
              onChange={(e) => set("serviceId")(e.target.value)}
              placeholder="Elige un servicio"
              options={active.map((s) => ({
                value: s.id,
                label: `${s.name} (${s.duration_minutes} min)`,
              }))}
              error={errors.service_id}
              hint={services.length === 0 ? "Crea antes un servicio en «Servicios»." : undefined}
            />
            <SelectField
              label="Conversación"
              required
              value={values.conversationId}
              onChange={(e) => set("conversationId")(e.target.value)}
              placeholder="Elige el cliente"
              options={customers}
              error={errors.conversation_id}
            />
            <SelectField
              label="Persona"
              value={values.staffId}
              onChange={(e) => set("staffId")(e.target.value)}
              placeholder="Cualquiera del equipo"
              options={staff.map((m) => ({ value: m.user_id, label: m.full_name }))}
              error={errors.staff_user_id}
            />
          </>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Día"
            type="date"
            required
            value={values.date}
            onChange={(e) => set("date")(e.target.value)}
          />
          <SlotField
            serviceId={values.serviceId}
            date={values.date}
            staffId={values.staffId}
            timeZone={timeZone}
            value={values.start}
            onChange={set("start")}
            error={errors.start}
            disabled={change.busy}
          />
        </div>
        {!moving && (
          <TextAreaField
            label="Nota"
            rows={2}
            maxLength={1000}
            value={values.note}
            onChange={(e) => set("note")(e.target.value)}
            error={errors.note}
          />
        )}
        {refusal && refusal.code === "slot_taken" && (
          <NearestSlots
            message={refusal.message}
            slots={refusal.slots}
            timeZone={timeZone}
            onPick={pick}
          />
        )}
        <DialogActions
          refusal={
            refusal && refusal.code !== "slot_taken" && Object.keys(errors).length === 0
              ? refusal.message
              : null
          }
          submitLabel={moving ? "Mover cita" : "Reservar"}
          busy={change.busy}
          disabled={!values.start || (!moving && !values.conversationId)}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
