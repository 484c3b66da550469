import { format } from "date-fns";
import { es } from "date-fns/locale";
import { useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "sonner";
import type { Role } from "../../../worker/auth/contract";
import {
  INVITATION_LIFETIME_DAYS,
  invitationInput,
} from "../../../worker/organizations/members-contract";
import { useLoadFailureToast, type OrganizationTabData } from "~/components/settings/data";
import { CopyableValue } from "~/components/settings/meta/copy-button";
import { ROLE_LABELS, assignableRoles } from "~/components/settings/members-section";
import { Button } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";
import { SecretForm } from "~/components/ui/secret-form";

/**
 * Inviting by e-mail: no mail is sent, the single-use link is shown here to hand over.
 * For owners and admins only (the route shows it to them alone).
 */
export function InvitationsSection({ loaded }: { loaded: OrganizationTabData["invitations"] }) {
  const auth = useAuth();
  const { revalidate } = useRevalidator();
  useLoadFailureToast(loaded, "Error al cargar las invitaciones");
  const pending = loaded.ok ? loaded.data : [];
  const [values, setValues] = useState<{ email: string; role: Role }>({
    email: "",
    role: "agent",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);
  const [link, setLink] = useState<string | null>(null);

  async function invite(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(invitationInput, values);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setSending(true);
    try {
      const invitation = await data(client.organizations.invitations.$post({ json: checked.data }));
      setLink(invitation.url ?? null);
      setValues((v) => ({ ...v, email: "" }));
      toast.success("Invitación creada");
      await revalidate();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast.error("No se pudo crear la invitación", { description: errorMessage(error) });
    } finally {
      setSending(false);
    }
  }

  async function revoke(invitation: (typeof pending)[number]) {
    try {
      await data(client.organizations.invitations[":id"].$delete({ param: { id: invitation.id } }));
      toast.success("Invitación revocada");
      await revalidate();
    } catch (error) {
      toast.error("No se pudo revocar la invitación", { description: errorMessage(error) });
    }
  }

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
        <Button type="submit" disabled={sending} className="sm:mt-6">
          {sending ? "Invitando..." : "Invitar"}
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
              onClick={() => void revoke(invitation)}
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
