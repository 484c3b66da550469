import { format } from "date-fns";
import { es } from "date-fns/locale";
import { useState } from "react";
import { toastFailed } from "~/lib/outcome";
import type { AuditAction, AuditLogEntry } from "../../../contracts/audit";
import { entrySummary } from "~/components/settings/audit-summary";
import { Button } from "~/components/ui/button";
import {
  readAuditLogPage,
  useLoadFailureToast,
  type OrganizationTabData,
} from "~/components/settings/data";

const LOAD_ERROR = "Error al cargar el registro de actividad";

const ACTION_LABELS: Record<AuditAction, string> = {
  "auth.register": "Cuenta creada",
  "auth.login": "Inicio de sesión",
  "auth.login_failed": "Inicio de sesión fallido",
  "auth.logout": "Cierre de sesión",
  "organization.create": "Organización creada",
  "organization.update": "Organización actualizada",
  "profile.update": "Perfil actualizado",
  "whatsapp.connect": "WhatsApp conectado",
  "whatsapp.disconnect": "WhatsApp desconectado",
  "agent.delete": "Agente eliminado",
  "knowledge.create": "Conocimiento añadido",
  "knowledge.update": "Conocimiento editado",
  "knowledge.delete": "Conocimiento eliminado",
  "pixel.connect": "Pixel de Meta conectado",
  "pixel.disconnect": "Pixel de Meta desconectado",
  "tracking_key.rotate": "Clave de tracking regenerada",
  "retention.run": "Limpieza de datos antiguos",
  "member.invite": "Invitación creada",
  "member.invite_revoke": "Invitación revocada",
  "member.join": "Nuevo miembro",
  "member.role_change": "Rol cambiado",
  "member.availability": "Disponibilidad o capacidad cambiada",
  "conversation.assign": "Conversación asignada",
  "label.create": "Etiqueta creada",
  "label.update": "Etiqueta modificada",
  "label.delete": "Etiqueta eliminada",
  "sale.create": "Venta registrada",
  "broadcast.schedule": "Difusión programada",
  "broadcast.send": "Difusión enviada",
  "broadcast.pause": "Difusión en pausa",
  "broadcast.resume": "Difusión reanudada",
  "broadcast.cancel": "Difusión cancelada",
  "follow_up.create": "Seguimiento creado",
  "follow_up.update": "Seguimiento modificado",
  "follow_up.delete": "Seguimiento eliminado",
  "service.create": "Servicio creado",
  "service.update": "Servicio modificado",
  "service.delete": "Servicio eliminado",
  "booking.create": "Cita reservada",
  "booking.update": "Cita modificada",
  "member.remove": "Miembro eliminado",
  "account.export": "Datos descargados",
  "account.delete": "Cuenta eliminada",
};

/** Who did what and when in the organization, newest first (owners and admins only). */
export function AuditLogSection({ loaded }: { loaded: OrganizationTabData["auditLog"] }) {
  useLoadFailureToast(loaded, LOAD_ERROR);
  const first = loaded.ok ? loaded.data : null;
  /** The pages "Cargar más" added after a first page (a new read of the first starts over). */
  const [older, setOlder] = useState<{ after: typeof first; page: Page } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const added = older?.after === first ? older.page : null;
  const entries = [...(first?.entries ?? []), ...(added?.entries ?? [])];
  const hasMore = (added ?? first)?.has_more ?? false;

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await readAuditLogPage(entries.at(-1)?.id);
      setOlder({
        after: first,
        page: { entries: [...(added?.entries ?? []), ...page.entries], has_more: page.has_more },
      });
    } catch (error) {
      toastFailed(LOAD_ERROR, error);
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <section aria-labelledby="audit-log-title" className="mt-10 max-w-3xl">
      <h2 id="audit-log-title" className="text-lg font-semibold">
        Registro de actividad
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Cambios de equipo, conexiones y configuración de la organización.
      </p>
      <ol
        aria-label="Registro de actividad"
        className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
      >
        {entries.length === 0 && (
          <li className="p-4 text-sm text-slate-500">Aún no hay actividad registrada.</li>
        )}
        {entries.map((entry) => (
          <AuditLogRow key={entry.id} entry={entry} />
        ))}
      </ol>
      {hasMore && (
        <Button
          variant="secondary"
          className="mt-4"
          disabled={loadingMore}
          onClick={() => void loadMore()}
        >
          {loadingMore ? "Cargando..." : "Cargar más"}
        </Button>
      )}
    </section>
  );
}

type Page = Awaited<ReturnType<typeof readAuditLogPage>>;

function AuditLogRow({ entry }: { entry: AuditLogEntry }) {
  const summary = entrySummary(entry.details);
  return (
    <li className="flex flex-col gap-1 p-4 text-sm sm:flex-row sm:justify-between sm:gap-4">
      <span className="min-w-0">
        <span className="font-medium text-slate-900">
          {/* An action recorded by a newer server than this console has no label yet. */}
          {ACTION_LABELS[entry.action] ?? entry.action}
        </span>
        {entry.target && <span className="text-slate-700"> · {entry.target}</span>}
        {summary && <span className="text-slate-700"> · {summary}</span>}
        <span className="block text-slate-600">
          {entry.actor ? `Por ${entry.actor.name} (${entry.actor.email})` : "Sin usuario asociado"}
          {entry.ip && ` · IP ${entry.ip}`}
        </span>
      </span>
      <time dateTime={entry.created_at} className="shrink-0 text-slate-500">
        {format(new Date(entry.created_at), "d MMM yyyy, HH:mm", { locale: es })}
      </time>
    </li>
  );
}
