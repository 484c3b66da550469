import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toastDone, toastFailed } from "~/lib/outcome";
import { loginInput, registerInput } from "../../contracts/auth";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { useHydrated } from "~/lib/use-hydrated";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";
import { SecretForm } from "~/components/ui/secret-form";

export const meta = () => [{ title: "Acceso — Atiende" }];

type Mode = "login" | "register";

export default function AuthScreen() {
  const auth = useAuth();
  const navigate = useNavigate();
  // An invitation link (`/auth?invitation=<token>`): joined once the person is signed in.
  const invitation = useSearchParams()[0].get("invitation");
  const joining = useRef(false);
  const [mode, setMode] = useState<Mode>(invitation ? "register" : "login");
  const [values, setValues] = useState({ full_name: "", email: "", password: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const hydrated = useHydrated();

  const { reload } = auth;
  useEffect(() => {
    if (auth.status !== "authenticated") return;
    if (!invitation) {
      navigate("/dashboard", { replace: true });
      return;
    }
    if (joining.current) return;
    joining.current = true;
    void (async () => {
      try {
        const joined = await data(
          client.organizations.invitations.accept.$post({ json: { token: invitation } }),
        );
        await reload();
        toastDone(`Te has unido a ${joined.organization_name}`);
      } catch (error) {
        // Used, expired or revoked, or already in an organization: the server says which.
        toastFailed("No se pudo aceptar la invitación", error);
      }
      navigate("/dashboard", { replace: true });
    })();
  }, [auth.status, invitation, navigate, reload]);

  const isRegister = mode === "register";
  const set = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setFormError(null);
    const checked = isRegister
      ? validate(registerInput, values)
      : validate(loginInput, { email: values.email, password: values.password });
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setSubmitting(true);
    try {
      if (isRegister) {
        await auth.register(registerInput.parse(values));
        toastDone("¡Cuenta creada! Redirigiendo...");
      } else {
        await auth.login(loginInput.parse(values));
        toastDone("¡Bienvenido!");
      }
      // With an invitation, the effect above joins the organization first.
      if (!invitation) navigate("/dashboard");
    } catch (error) {
      const message = errorMessage(error);
      setErrors(serverFieldErrors(error));
      setFormError(message);
      toastFailed(message);
    } finally {
      setSubmitting(false);
    }
  }

  function toggle() {
    setMode(isRegister ? "login" : "register");
    setErrors({});
    setFormError(null);
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-emerald-50 to-slate-100 p-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg">
        <Link to="/" className="text-sm font-semibold text-emerald-700">
          Atiende
        </Link>
        <h1 className="mt-4 text-2xl font-bold">
          {isRegister ? "Crear cuenta" : "Iniciar Sesión"}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          {isRegister
            ? "Empieza a atender a tus clientes de WhatsApp con tu equipo y agentes de IA."
            : "Accede a la consola de tu organización."}
        </p>
        {invitation && (
          <p className="mt-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            Te han invitado a unirte a una organización. Crea tu cuenta o inicia sesión para aceptar
            la invitación.
          </p>
        )}
        <SecretForm className="mt-6 space-y-4" onSubmit={submit} noValidate>
          {isRegister && (
            <Field
              label="Nombre completo"
              name="full_name"
              autoComplete="name"
              value={values.full_name}
              onChange={set("full_name")}
              error={errors.full_name}
              required
            />
          )}
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={set("email")}
            error={errors.email}
            required
          />
          <Field
            label="Contraseña"
            name="password"
            type="password"
            autoComplete={isRegister ? "new-password" : "current-password"}
            value={values.password}
            onChange={set("password")}
            error={errors.password}
            hint={isRegister ? "Mínimo 6 caracteres" : undefined}
            required
          />
          {formError && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
              {formError}
            </p>
          )}
          <Button type="submit" className="w-full" disabled={submitting}>
            {submitting
              ? isRegister
                ? "Creando cuenta..."
                : "Iniciando sesión..."
              : isRegister
                ? "Crear cuenta"
                : "Iniciar Sesión"}
          </Button>
        </SecretForm>
        <p className="mt-6 text-center text-sm text-slate-600">
          {isRegister ? "¿Ya tienes cuenta?" : "¿No tienes cuenta?"}{" "}
          <button
            type="button"
            onClick={toggle}
            // Inert until the script runs: a click before that would be lost.
            disabled={!hydrated}
            className="font-medium text-emerald-700 hover:underline disabled:text-slate-400"
          >
            {isRegister ? "Inicia sesión" : "Regístrate"}
          </button>
        </p>
      </div>
    </main>
  );
}
