import { z } from "zod/mini";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { EMPLOYEE_COUNTS, organizationCreateInput } from "../../contracts/organizations";
import { Button } from "~/components/ui/button";
import { Field, SelectField, TextAreaField } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";
import { asJson } from "~/components/broadcasts/actions";
import { validate, type FieldErrors, type Refusal } from "~/lib/forms";

const STEPS = [
  { title: "Información básica", fields: ["name", "industry", "description"] },
  { title: "Detalles", fields: ["city", "country", "employee_count", "address"] },
  { title: "Operación", fields: ["services_offered", "business_hours", "ai_use_case"] },
] as const;

/** What the wizard sends to the dashboard's action: its fields as typed. */
export type OnboardingValues = Record<(typeof STEPS)[number]["fields"][number], string>;

/** How the organization's creation went, as the dashboard's action answers it. */
export type OrganizationCreation = { ok: true } | Refusal;

const EMPTY: OnboardingValues = {
  name: "",
  industry: "",
  description: "",
  city: "",
  country: "",
  employee_count: "",
  address: "",
  services_offered: "",
  business_hours: "",
  ai_use_case: "",
};

/** Each step checks only its own fields, with the API's own rules. */
const stepSchemas = STEPS.map((step) =>
  z.pick(
    organizationCreateInput,
    Object.fromEntries(step.fields.map((f) => [f, true])) as Record<keyof OnboardingValues, true>,
  ),
);

/**
 * Onboarding, shown on /dashboard by the console layout: the organization is created by the
 * dashboard's action (routes/dashboard.tsx), which the router follows by reading the dashboard's
 * data again; the session then learns the organization (and the owner role) and the layout
 * swaps this wizard for the dashboard. The Toaster lives in the root, so the toast stays.
 */
export function OnboardingWizard() {
  const { reload } = useAuth();
  const creator = useFetcher<OrganizationCreation>();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<OnboardingValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const answer = creator.data;
  const created = answer?.ok === true;
  // Once created, the wizard stays busy until the dashboard takes its place.
  const saving = creator.state !== "idle" || created;
  const last = step === STEPS.length - 1;

  useEffect(() => {
    if (answer && !answer.ok) setErrors(answer.fieldErrors);
  }, [answer]);
  // The dashboard's data first (its loader found no organization while this wizard showed).
  useEffect(() => {
    if (created && creator.state === "idle") void reload();
  }, [created, creator.state, reload]);

  const bind = (field: keyof OnboardingValues) => ({
    name: field,
    value: values[field],
    error: errors[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  function next(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(stepSchemas[step]!, values);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    if (!last) return setStep(step + 1);
    void creator.submit(values, { ...asJson, action: "/dashboard" });
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-emerald-50 to-slate-100 p-4">
      <form
        onSubmit={next}
        noValidate
        className="w-full max-w-xl rounded-2xl bg-white p-6 shadow-lg sm:p-8"
        aria-labelledby="onboarding-title"
      >
        <h1 id="onboarding-title" className="text-2xl font-bold">
          Configura tu organización
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Paso {step + 1} de {STEPS.length}: {STEPS[step]!.title}
        </p>
        <div
          className="mt-4 h-2 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-label="Progreso de la configuración"
          aria-valuemin={1}
          aria-valuemax={STEPS.length}
          aria-valuenow={step + 1}
        >
          <div
            className="h-full bg-emerald-700 transition-all"
            style={{ width: `${((step + 1) / STEPS.length) * 100}%` }}
          />
        </div>
        <ol className="mt-3 grid grid-cols-3 gap-2 text-xs">
          {STEPS.map((s, index) => (
            <li
              key={s.title}
              className={index <= step ? "font-medium text-emerald-700" : "text-slate-500"}
              aria-current={index === step ? "step" : undefined}
            >
              {s.title}
            </li>
          ))}
        </ol>

        <div className="mt-6 space-y-4">
          {step === 0 && (
            <>
              <Field label="Nombre de la organización" required autoFocus {...bind("name")} />
              <Field
                label="Sector"
                required
                placeholder="Ej.: Salud, Retail, Educación"
                {...bind("industry")}
              />
              <TextAreaField label="Descripción" rows={3} {...bind("description")} />
            </>
          )}
          {step === 1 && (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Ciudad" required autoFocus {...bind("city")} />
                <Field label="País" required {...bind("country")} />
              </div>
              <SelectField
                label="Número de empleados"
                required
                placeholder="Selecciona un rango"
                options={EMPLOYEE_COUNTS.map((value) => ({ value, label: value }))}
                {...bind("employee_count")}
              />
              <Field label="Dirección" {...bind("address")} />
            </>
          )}
          {step === 2 && (
            <>
              <TextAreaField
                label="Servicios que ofreces"
                required
                rows={3}
                autoFocus
                {...bind("services_offered")}
              />
              <Field
                label="Horario de atención"
                required
                placeholder="Ej.: L-V 9:00-18:00"
                {...bind("business_hours")}
              />
              <TextAreaField
                label="¿Para qué usarás la IA?"
                required
                rows={3}
                placeholder="Ej.: responder preguntas frecuentes y agendar citas"
                {...bind("ai_use_case")}
              />
            </>
          )}
        </div>

        <div className="mt-8 flex justify-between gap-3">
          <Button
            variant="secondary"
            onClick={() => {
              setErrors({});
              setStep(step - 1);
            }}
            disabled={step === 0 || saving}
          >
            Atrás
          </Button>
          <Button type="submit" disabled={saving}>
            {last ? (saving ? "Creando..." : "Crear organización") : "Siguiente"}
          </Button>
        </div>
      </form>
    </main>
  );
}
