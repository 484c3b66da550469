import { useState } from "react";
import { profileUpdateInput } from "../../../contracts/auth";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useSettingsChange } from "./actions";

export function UserSettingsForm() {
  const auth = useAuth();
  const user = auth.user!;
  const [fullName, setFullName] = useState(user.full_name);
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useSettingsChange();
  const saving = change.busy;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(profileUpdateInput, { full_name: fullName });
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    const result = await change.run({ intent: "profile.update", values: checked.data });
    if (!result.ok) return setErrors(result.fieldErrors);
    if (result.user) {
      auth.setUser(result.user);
      setFullName(result.user.full_name);
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
