import { format } from "date-fns";
import { es } from "date-fns/locale";
import { useState } from "react";
import type { Role } from "../../../contracts/auth";
import { INVITATION_LIFETIME_DAYS, invitationInput } from "../../../contracts/members";
import { useLoadFailureToast, type OrganizationTabData } from "~/components/settings/data";
import { CopyableValue } from "~/components/settings/meta/copy-button";
import { ROLE_LABELS, assignableRoles } from "~/components/settings/members-section";
import { Button } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/field";
import { useSettingsChange } from "~/components/settings/actions";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { SecretForm } from "~/components/ui/secret-form";

/**
 * Inviting by e-mail: no mail is sent, the single-use link is shown here to hand over.
 * For owners and admins only (the route shows it to them alone).
 */
export function InvitationsSection({ loaded }: { loaded: OrganizationTabData["invitations"] }) {
  const auth = useAuth();
  useLoadFailureToast(loaded, "Error al cargar las invitaciones");
  const pending = loaded.ok ? loaded.data : [];
  const [values, setValues] = useState<{ email: string; role: Role }>({
    email: "",
    role: "agent",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [link, setLink] = useState<string | null>(null);
  const inviter = useSettingsChange((result) => {
    if (!result.ok) return setErrors(result.fieldErrors);
    setLink(result.link ?? null);
    setValues((v) => ({ ...v, email: "" }));
  });
  const revoker = useSettingsChange();

  function invite(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(invitationInput, values);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    void inviter.submit({ intent: "invitation.create", values: checked.data });
  }

  const revoke = (invitation: (typeof pending)[number]) =>
    void revoker.submit({ intent: "invitation.revoke", id: invitation.id });

  return (
    <section aria-labelledby="invitations-title" className="mt-10 max-w-3xl">
      <h2 id="invitations-title" className="text-lg font-semibold">
        Invitaciones
      </h2>
      <SecretForm onSubmit={invite} noValidate className="mt-4 flex flex-wrap items-start gap-3">
        <Field
          label="Email de la persona"
          name="email"
          type="email"
          className="min-w-56 flex-1"
          value={values.email}
          error={errors.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
        />
        <SelectField
          label="Rol"
          name="role"
          value={values.role}
          error={errors.role}
          options={assignableRoles(auth.role).map((role) => ({
            value: role,
            label: ROLE_LABELS[role],
          }))}
          onChange={(e) => setValues((v) => ({ ...v, role: e.target.value as Role }))}
        />
        <Button type="submit" disabled={inviter.busy} className="sm:mt-6">
          {inviter.busy ? "Invitando..." : "Invitar"}
        </Button>
      </SecretForm>
      {link && (
        <div className="mt-4 rounded-xl border border-emerald-200 bg-emerald-50 p-4">
          <CopyableValue
            label="Enlace de invitación"
            value={link}
            hint={`Compártelo con la persona invitada: sirve una sola vez y caduca en ${INVITATION_LIFETIME_DAYS} días.`}
          />
        </div>
      )}
      <h3 className="mt-6 text-sm font-semibold text-slate-700">Invitaciones pendientes</h3>
      <ul
        aria-label="Invitaciones pendientes"
        className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
      >
        {pending.length === 0 && (
          <li className="p-4 text-sm text-slate-500">No hay invitaciones pendientes.</li>
        )}
        {pending.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <span className="min-w-0">
              <span className="block truncate font-medium text-slate-900">{invitation.email}</span>
              <span className="block text-sm text-slate-600">
                {ROLE_LABELS[invitation.role]} · caduca el{" "}
                {format(new Date(invitation.expires_at), "d 'de' MMMM, HH:mm", { locale: es })}
              </span>
            </span>
            <Button
              variant="ghost"
              onClick={() => revoke(invitation)}
              aria-label={`Revocar la invitación de ${invitation.email}`}
            >
              Revocar
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
