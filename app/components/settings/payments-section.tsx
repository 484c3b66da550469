import { format } from "date-fns";
import { es } from "date-fns/locale";
import { useState } from "react";
import {
  paymentIntegrationInput,
  type PaymentIntegration,
  type PaymentProvider,
} from "../../../contracts/payments";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { Field, SelectField } from "~/components/ui/field";
import { SecretForm } from "~/components/ui/secret-form";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useSettingsChange } from "./actions";
import { CopyableValue } from "./meta/copy-button";
import { StatusSection } from "./status-section";
import { useOrigin } from "./meta/use-origin";
import { OrganizationNumberForm } from "./organization-number-form";

export const PROVIDER_NAMES: Record<PaymentProvider, string> = {
  stripe: "Stripe",
  mercadopago: "Mercado Pago",
};

/** Where, in each provider's dashboard, the webhook goes and which secret it gives. */
const WEBHOOK_STEPS: Record<PaymentProvider, string> = {
  stripe:
    "En Stripe, Desarrolladores → Webhooks: añade un destino con esta URL y los eventos checkout.session.completed, checkout.session.expired y charge.refunded. Su secreto de firma (whsec_…) es la clave de los webhooks.",
  mercadopago:
    "En Mercado Pago, Tus integraciones → Webhooks: indica esta URL para el evento Pagos. La clave secreta que te muestra es la clave de los webhooks.",
};

/**
 * Where a provider posts the organization's events, as the server builds it
 * (durable-objects/payments/settings.ts); the console's origin when the server has no public URL.
 */
function webhookUrl(origin: string, provider: PaymentProvider, organizationId: string) {
  return `${origin}/webhooks/payments/${provider}?organization=${organizationId}`;
}
const absolute = (origin: string, url: string) => (url.startsWith("/") ? origin + url : url);

interface PaymentsSectionProps {
  integration: PaymentIntegration | null;
  maxPaymentAmount: number;
}

/**
 * Configuración → Agenda y cobros: the payment provider the links are created with (Stripe or
 * Mercado Pago). Every member sees which one is connected; owners and admins connect, replace
 * and disconnect it. Its secrets are never shown back.
 */
export function PaymentsSection({ integration, maxPaymentAmount }: PaymentsSectionProps) {
  const { role, organization } = useAuth();
  const canManage = role === "owner" || role === "admin";
  const origin = useOrigin();
  if (!organization) return null;
  return (
    <StatusSection
      title="Enlaces de pago"
      status={integration ? "connected" : "disconnected"}
      description="Cobra en el chat: el cliente recibe un botón «Pagar» que abre el pago de Stripe o de Mercado Pago. Al pagar, su cita queda confirmada y la venta se registra en la conversación."
      className="max-w-3xl space-y-5"
    >
      {integration ? (
        <ConnectedProvider
          integration={integration}
          webhook={absolute(origin, integration.webhook_url)}
          canManage={canManage}
        />
      ) : (
        <p className="text-sm text-slate-700">No hay ningún proveedor de pagos conectado.</p>
      )}
      {canManage ? (
        <ConnectProviderForm
          replacing={integration !== null}
          webhookFor={(provider) => webhookUrl(origin, provider, organization.id)}
        />
      ) : (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          Solo los propietarios y administradores pueden conectar o desconectar el proveedor de
          pagos.
        </p>
      )}
      {/* The largest payment link a person (or the AI) may send (1,000 unless changed). */}
      <OrganizationNumberForm
        setting="max_payment_amount"
        saved={maxPaymentAmount}
        label={`Importe máximo de un enlace (${organization.currency})`}
        hint="Ningún enlace de pago puede pedir más."
        submitLabel="Guardar importe"
        says={{
          success: "Importe máximo actualizado",
          failure: "Error al guardar el importe máximo",
        }}
        money
        canEdit={canManage}
        aria-label="Importe máximo de un enlace de pago"
        className="flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-end"
        fieldClassName="sm:w-72"
      />
    </StatusSection>
  );
}

/** The provider connected: which account, since when, its webhook URL and "Desconectar". */
function ConnectedProvider({
  integration,
  webhook,
  canManage,
}: {
  integration: PaymentIntegration;
  webhook: string;
  canManage: boolean;
}) {
  const [asked, setAsked] = useState(false);
  const name = PROVIDER_NAMES[integration.provider];
  const change = useSettingsChange(() => setAsked(false));
  return (
    <div className="space-y-4">
      <dl className="grid gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-500">Proveedor</dt>
          <dd className="mt-0.5 font-medium text-slate-900">{name}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-slate-500">Cuenta</dt>
          <dd className="mt-0.5 break-all font-medium text-slate-900">
            {integration.account_id || "—"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Conectado el</dt>
          <dd className="mt-0.5 font-medium text-slate-900">
            {format(new Date(integration.connected_at), "d MMM yyyy", { locale: es })}
          </dd>
        </div>
      </dl>
      <CopyableValue
        label="URL del webhook de pagos"
        value={webhook}
        hint={WEBHOOK_STEPS[integration.provider]}
      />
      {canManage && (
        <>
          <Button
            variant="secondary"
            className="border-red-200! text-red-700! hover:bg-red-50!"
            onClick={() => setAsked(true)}
            disabled={change.busy}
          >
            Desconectar
          </Button>
          <ConfirmDialog
            open={asked}
            title={`Desconectar ${name}`}
            description="No se podrán enviar enlaces de pago nuevos. Los enlaces ya enviados siguen como están."
            confirmLabel="Desconectar"
            busy={change.busy}
            onConfirm={() => void change.submit({ intent: "payments.disconnect" })}
            onClose={() => setAsked(false)}
          />
        </>
      )}
    </div>
  );
}

const EMPTY = { secret: "", webhook_secret: "" };
const PROVIDER_OPTIONS = (Object.keys(PROVIDER_NAMES) as PaymentProvider[]).map((value) => ({
  value,
  label: PROVIDER_NAMES[value],
}));

/** "Conectar": the provider, its secret key and its webhooks' key, checked by the server. */
function ConnectProviderForm({
  replacing,
  webhookFor,
}: {
  replacing: boolean;
  webhookFor: (provider: PaymentProvider) => string;
}) {
  const [provider, setProvider] = useState<PaymentProvider>("stripe");
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useSettingsChange((result) => {
    if (!result.ok) return setErrors(result.fieldErrors);
    setValues(EMPTY);
    setErrors({});
  });
  const saving = change.busy;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(paymentIntegrationInput, { provider, ...values });
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    void change.submit({ intent: "payments.connect", values: checked.data });
  }

  const bind = (field: keyof typeof EMPTY) => ({
    name: field,
    type: "password",
    required: true,
    autoComplete: "off",
    value: values[field],
    error: errors[field],
    disabled: saving,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  return (
    <SecretForm
      onSubmit={submit}
      noValidate
      aria-label="Conectar proveedor de pagos"
      className="space-y-4 border-t border-slate-100 pt-5"
    >
      <h3 className="text-sm font-semibold text-slate-900">
        {replacing ? "Cambiar de proveedor o de claves" : "Conectar un proveedor"}
      </h3>
      <SelectField
        label="Proveedor"
        options={PROVIDER_OPTIONS}
        value={provider}
        error={errors.provider}
        disabled={saving}
        onChange={(e) => setProvider(e.target.value as PaymentProvider)}
      />
      <CopyableValue
        label="URL del webhook"
        value={webhookFor(provider)}
        hint={WEBHOOK_STEPS[provider]}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Clave secreta"
          hint="Se comprueba con el proveedor, se guarda cifrada y nunca se vuelve a mostrar."
          {...bind("secret")}
        />
        <Field
          label="Clave de los webhooks"
          hint="Con ella se comprueba que cada aviso de pago viene del proveedor."
          {...bind("webhook_secret")}
        />
      </div>
      {replacing && (
        <p className="text-xs text-slate-500">Al guardar se sustituye el proveedor conectado.</p>
      )}
      <Button type="submit" disabled={saving}>
        {saving ? "Comprobando..." : "Conectar"}
      </Button>
    </SecretForm>
  );
}
