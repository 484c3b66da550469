import { useState } from "react";
import type { Service } from "../../../contracts/bookings";
import type { Member } from "../../../contracts/members";
import { Button } from "~/components/ui/button";
import { PAYMENT_LABELS } from "./labels";
import { ServiceDialog } from "./service-dialog";
import { useAgendaChange } from "./use-agenda-change";

/** "30 min · margen 10 min · 35.00 EUR · Señal 10.00 EUR". */
function serviceLine(s: Service) {
  const parts = [`${s.duration_minutes} min`];
  if (s.buffer_minutes) parts.push(`margen ${s.buffer_minutes} min`);
  if (s.price) parts.push(`${s.price} ${s.currency}`);
  if (s.payment !== "none") {
    parts.push(s.payment === "deposit" ? `Señal ${s.deposit} ${s.currency}` : PAYMENT_LABELS.full);
  }
  return parts.join(" · ");
}

/**
 * Agenda > Servicios: what can be booked. Owners and admins create, edit, deactivate and
 * activate them; the rest of the team reads them.
 */
export function ServicesPanel({
  services,
  members,
  canManage,
  currency,
}: {
  services: Service[];
  members: Member[];
  canManage: boolean;
  currency: string;
}) {
  const [editing, setEditing] = useState<Service | "new" | null>(null);
  const change = useAgendaChange();
  const names = new Map(members.map((m) => [m.user_id, m.full_name]));
  return (
    <section aria-labelledby="services-title" className="mt-8 max-w-4xl">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="services-title" className="text-lg font-semibold text-slate-900">
          Servicios
        </h2>
        {canManage && <Button onClick={() => setEditing("new")}>Nuevo servicio</Button>}
      </div>
      {services.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">
          {canManage
            ? "Aún no hay servicios: crea uno para poder reservar citas."
            : "Aún no hay servicios. Los propietarios y administradores los crean."}
        </p>
      ) : (
        <ul
          aria-label="Servicios"
          className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
        >
          {services.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
            >
              <div>
                <p className="font-medium text-slate-900">
                  {s.name}
                  {!s.active && (
                    <span className="ml-2 text-xs font-normal text-slate-600">(desactivado)</span>
                  )}
                </p>
                <p className="text-slate-600">{serviceLine(s)}</p>
                {s.staff_user_ids.length > 0 && (
                  <p className="text-slate-600">
                    Con{" "}
                    {s.staff_user_ids
                      .map((id) => names.get(id) ?? "alguien que ya no está")
                      .join(", ")}
                  </p>
                )}
              </div>
              {canManage && (
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    className="px-2 py-1"
                    onClick={() => setEditing(s)}
                    aria-label={`Editar ${s.name}`}
                  >
                    Editar
                  </Button>
                  <Button
                    variant="secondary"
                    className="px-2 py-1"
                    disabled={change.busy}
                    aria-label={`${s.active ? "Desactivar" : "Activar"} ${s.name}`}
                    onClick={() =>
                      void change.submit({
                        intent: "service.update",
                        id: s.id,
                        values: { active: !s.active },
                      })
                    }
                  >
                    {s.active ? "Desactivar" : "Activar"}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <ServiceDialog
          service={editing === "new" ? null : editing}
          members={members}
          currency={currency}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
