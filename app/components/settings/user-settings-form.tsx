import { useState } from "react";
import { toastDone, toastFailed } from "~/lib/outcome";
import { profileUpdateInput } from "../../../worker/auth/contract";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";

export function UserSettingsForm() {
  const auth = useAuth();
  const user = auth.user!;
  const [fullName, setFullName] = useState(user.full_name);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(profileUpdateInput, { full_name: fullName });
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setSaving(true);
    try {
      const profile = await data(client.profiles.me.$patch({ json: checked.data }));
      auth.setUser({ id: profile.id, email: profile.email, full_name: profile.full_name });
      setFullName(profile.full_name);
      toastDone("Perfil actualizado correctamente");
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toastFailed("Error al actualizar el perfil", error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      onSubmit={save}
      noValidate
      className="max-w-xl space-y-4"
      aria-label="Configuración de Usuario"
    >
      <Field
        label="Email"
        value={user.email}
        readOnly
        disabled
        hint="El email no se puede cambiar."
      />
      <Field
        label="Nombre completo"
        name="full_name"
        autoComplete="name"
        required
        value={fullName}
        onChange={(e) => setFullName(e.target.value)}
        error={errors.full_name}
      />
      <div className="flex gap-3">
        <Button
          variant="secondary"
          onClick={() => {
            setFullName(user.full_name);
            setErrors({});
          }}
          disabled={saving}
        >
          Cancelar
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? "Guardando..." : "Guardar Cambios"}
        </Button>
      </div>
    </form>
  );
}
