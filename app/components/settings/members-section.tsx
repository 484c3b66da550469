import { useState } from "react";
import { ROLES, type Role } from "../../../contracts/auth";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { leftOrganization, useSettingsChange } from "~/components/settings/actions";
import { useLoadFailureToast, type OrganizationTabData } from "~/components/settings/data";
import { useAuth } from "~/lib/auth";

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Propietario",
  admin: "Administrador",
  agent: "Agente",
};

export const canManageTeam = (role: Role | null) => role === "owner" || role === "admin";

/** Only owners grant or take away the owner role (the server enforces it too). */
export const assignableRoles = (callerRole: Role | null): Role[] =>
  callerRole === "owner" ? [...ROLES] : ROLES.filter((role) => role !== "owner");

/** The team: everyone sees it; owners and admins change roles and remove members. */
export function MembersSection({ loaded }: { loaded: OrganizationTabData["members"] }) {
  const auth = useAuth();
  const [removing, setRemoving] = useState<Member | null>(null);
  useLoadFailureToast(loaded, "Error al cargar los miembros");
  const members = loaded.ok ? loaded.data : [];

  const isSelf = (member: Member) => member.user_id === auth.user?.id;

  const roleChanger = useSettingsChange();
  const remover = useSettingsChange((result) => {
    setRemoving(null);
    if (leftOrganization(result)) void auth.reload();
  });

  const changeRole = (member: Member, role: Role) =>
    void roleChanger.submit({ intent: "member.role", userId: member.user_id, role });

  const remove = (member: Member) =>
    void remover.submit({ intent: "member.remove", userId: member.user_id, self: isSelf(member) });

  return (
    <section aria-labelledby="members-title" className="mt-10 max-w-3xl">
      <h2 id="members-title" className="text-lg font-semibold">
        Miembros
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Propietarios y administradores gestionan la configuración, los agentes y el equipo; todo el
        equipo atiende conversaciones.
      </p>
      <ul
        aria-label="Miembros del equipo"
        className="mt-4 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
      >
        {members.map((member) => (
          <MemberRow
            key={member.user_id}
            member={member}
            isSelf={isSelf(member)}
            callerRole={auth.role}
            onChangeRole={(role) => changeRole(member, role)}
            onRemove={() => setRemoving(member)}
          />
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="¿Eliminar a este miembro?"
        description={
          removing
            ? `${removing.full_name} (${removing.email}) dejará de tener acceso a la organización.`
            : ""
        }
        confirmLabel="Eliminar"
        busyLabel="Eliminando..."
        busy={remover.busy}
        onConfirm={() => removing && remove(removing)}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}

type Member = Extract<OrganizationTabData["members"], { ok: true }>["data"][number];

interface MemberRowProps {
  member: Member;
  isSelf: boolean;
  callerRole: Role | null;
  onChangeRole: (role: Role) => void;
  onRemove: () => void;
}

function MemberRow({ member, isSelf, callerRole, onChangeRole, onRemove }: MemberRowProps) {
  // Admins may not touch owners; agents touch nobody.
  const editable = canManageTeam(callerRole) && (callerRole === "owner" || member.role !== "owner");
  const name = `${member.full_name}${isSelf ? " (tú)" : ""}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-4">
      <span className="min-w-0">
        <span className="block font-medium text-slate-900">{name}</span>
        <span className="block truncate text-sm text-slate-600">{member.email}</span>
      </span>
      {editable ? (
        <span className="flex items-center gap-2">
          <select
            aria-label={`Rol de ${member.full_name}`}
            value={member.role}
            onChange={(e) => onChangeRole(e.target.value as Role)}
            className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
          >
            {assignableRoles(callerRole).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <Button variant="ghost" onClick={onRemove} aria-label={`Eliminar a ${member.full_name}`}>
            Eliminar
          </Button>
        </span>
      ) : (
        <span className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700">
          {ROLE_LABELS[member.role]}
        </span>
      )}
    </li>
  );
}
