import { useId, useState } from "react";
import { whatsappConfigInput } from "../../../../contracts/whatsapp";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useSettingsChange } from "~/components/settings/actions";
import { validate, type FieldErrors } from "~/lib/forms";
import { SecretForm } from "~/components/ui/secret-form";

const EMPTY = { phone_number_id: "", business_account_id: "", access_token: "", phone_number: "" };

interface ManualConnectFormProps {
  /** Open from the start (when Facebook Login is not available). */
  defaultOpen?: boolean;
  /** A number is already connected: saving replaces it. */
  replacing: boolean;
  /** Once saved (the router reads the connection again after the action). */
  onConnected: () => void;
}

/**
 * 'Conectar manualmente': for businesses with their own Meta app, the ids and a permanent
 * access token from Meta for Developers. The server checks them with Meta before saving.
 */
export function ManualConnectForm({
  defaultOpen = false,
  replacing,
  onConnected,
}: ManualConnectFormProps) {
  const panelId = useId();
  const [open, setOpen] = useState(defaultOpen);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});

  const bind = (field: keyof typeof EMPTY) => ({
    name: field,
    value: values[field],
    error: errors[field],
    disabled: saving,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  // The route's action connects it; the router reads the connection again.
  const connector = useSettingsChange((result) => {
    if (!result.ok) return setErrors(result.fieldErrors);
    setValues(EMPTY);
    setOpen(false);
    onConnected();
  });
  const saving = connector.busy;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const input = {
      phone_number_id: values.phone_number_id,
      business_account_id: values.business_account_id,
      access_token: values.access_token,
      ...(values.phone_number.trim() ? { phone_number: values.phone_number } : {}),
    };
    const checked = validate(whatsappConfigInput, input);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    void connector.submit({ intent: "whatsapp.connect", values: checked.data });
  }

  return (
    <div className="rounded-lg border border-slate-200">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between gap-3 rounded-lg px-4 py-3 text-left text-sm font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500"
      >
        <span>Conectar manualmente</span>
        <svg
          aria-hidden
          viewBox="0 0 20 20"
          className={`h-4 w-4 shrink-0 text-slate-500 transition-transform ${open ? "rotate-180" : ""}`}
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
        >
          <path d="M5 8l5 5 5-5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <div id={panelId} hidden={!open} className="border-t border-slate-200 px-4 pb-4 pt-3">
        <SecretForm
          onSubmit={submit}
          noValidate
          aria-label="Conectar WhatsApp manualmente"
          className="space-y-4"
        >
          <p className="text-sm text-slate-600">
            Para empresas con su propia app de Meta. Encontrarás estos datos en Meta for Developers,
            en WhatsApp → Configuración de la API. Usa un token de acceso permanente de un usuario
            del sistema.
            {replacing && " Al guardar se sustituye el número conectado ahora."}
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="ID del número de teléfono"
              required
              autoComplete="off"
              inputMode="numeric"
              {...bind("phone_number_id")}
            />
            <Field
              label="ID de la cuenta de WhatsApp Business"
              required
              autoComplete="off"
              inputMode="numeric"
              {...bind("business_account_id")}
            />
          </div>
          <Field
            label="Token de acceso"
            type="password"
            required
            autoComplete="off"
            hint="Se guarda cifrado y nunca se vuelve a mostrar."
            {...bind("access_token")}
          />
          <Field
            label="Número de teléfono (opcional)"
            type="tel"
            autoComplete="off"
            placeholder="+34 600 000 000"
            hint="Si lo dejas vacío se usa el que indica Meta."
            {...bind("phone_number")}
          />
          <div className="flex justify-end">
            <Button type="submit" disabled={saving}>
              {saving ? "Conectando..." : "Guardar conexión"}
            </Button>
          </div>
        </SecretForm>
      </div>
    </div>
  );
}
