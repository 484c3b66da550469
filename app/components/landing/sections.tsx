import { Link } from "react-router";
import { FEATURES, FIGURES, FOOTER_PLACEHOLDERS, STEPS } from "./content";
import { Icon } from "~/components/ui/icon";

const primary =
  "inline-flex items-center justify-center rounded-lg bg-emerald-700 px-5 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-emerald-800";
const secondary =
  "inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-5 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50";

export function LandingHeader() {
  return (
    <header className="border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900">
          <span
            aria-hidden="true"
            className="grid h-8 w-8 place-items-center rounded-lg bg-emerald-700 text-white"
          >
            A
          </span>
          Atiende
        </Link>
        <nav aria-label="Cuenta" className="flex items-center gap-2">
          <Link
            to="/auth"
            className="rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100"
          >
            Iniciar Sesión
          </Link>
          <Link to="/auth" className={primary}>
            Comenzar Gratis
          </Link>
        </nav>
      </div>
    </header>
  );
}

export function Hero() {
  return (
    <section className="bg-gradient-to-b from-emerald-50 to-white">
      <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6 sm:py-28">
        <p className="text-sm font-semibold uppercase tracking-wide text-emerald-700">
          WhatsApp Business · IA · Meta Ads
        </p>
        <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
          Vende más por WhatsApp con tu equipo y agentes de IA
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
          Conecta tu número y tu Pixel de Meta en un minuto. La IA responde al instante, tu equipo
          toma el relevo cuando hace falta y cada venta vuelve a tus anuncios.
        </p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/auth" className={primary}>
            Comenzar Gratis
          </Link>
          <Link to="/auth" className={secondary}>
            Ver Demo
          </Link>
        </div>
      </div>
    </section>
  );
}

export function Figures() {
  return (
    <section aria-labelledby="figures-title" className="border-y border-slate-200 bg-white">
      <h2 id="figures-title" className="sr-only">
        Resultados
      </h2>
      <dl className="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-12 text-center sm:grid-cols-3 sm:px-6">
        {FIGURES.map((figure) => (
          <div key={figure.label}>
            <dt className="text-sm font-medium text-slate-600">{figure.label}</dt>
            <dd className="mt-1 text-4xl font-extrabold text-emerald-700">{figure.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function Features() {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <h2 id="features-title" className="text-center text-3xl font-bold text-slate-900">
        Todo lo que necesitas para atender y vender
      </h2>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <li
            key={feature.title}
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <span className="grid h-11 w-11 place-items-center rounded-xl bg-emerald-100 text-emerald-700">
              <Icon path={feature.icon} className="h-6 w-6" strokeWidth={1.8} />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{feature.title}</h3>
            <p className="mt-2 text-sm text-slate-600">{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function HowItWorks() {
  return (
    <section aria-labelledby="steps-title" className="bg-slate-900 text-white">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <h2 id="steps-title" className="text-center text-3xl font-bold">
          Empieza en tres pasos
        </h2>
        <ol className="mt-12 grid gap-8 sm:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title}>
              <span className="text-sm font-semibold text-emerald-400">Paso {index + 1}</span>
              <h3 className="mt-2 text-xl font-semibold">{step.title}</h3>
              <p className="mt-2 text-sm text-slate-300">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

export function PrivacyCallout() {
  return (
    <section aria-labelledby="privacy-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <div className="flex flex-col items-start gap-6 rounded-2xl border border-emerald-200 bg-emerald-50 p-8 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="privacy-title" className="text-2xl font-bold text-slate-900">
            Tus datos y los de tus clientes, protegidos
          </h2>
          <p className="mt-2 max-w-2xl text-slate-700">
            Credenciales cifradas, acceso por roles y auditoría. Las conversaciones se guardan dos
            años y después se borran automáticamente; puedes exportar o eliminar tu cuenta cuando
            quieras.
          </p>
        </div>
        <Link to="/privacy-policy" className={secondary}>
          Ver Política de Privacidad
        </Link>
      </div>
    </section>
  );
}

export function LandingFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-4 sm:px-6">
        <div>
          <p className="text-lg font-bold text-slate-900">Atiende</p>
          <p className="mt-2 text-sm text-slate-600">Conversaciones de WhatsApp que venden.</p>
        </div>
        {Object.entries(FOOTER_PLACEHOLDERS).map(([group, items]) => (
          <div key={group}>
            <p className="text-sm font-semibold text-slate-900">{group}</p>
            <ul className="mt-3 space-y-2 text-sm text-slate-500">
              {items.map((item) => (
                <li key={item}>
                  <span>{item}</span>
                </li>
              ))}
              {group === "Legal" && (
                <>
                  <li>
                    <Link to="/privacy-policy" className="text-slate-700 hover:text-emerald-700">
                      Privacidad
                    </Link>
                  </li>
                  <li>
                    <Link to="/terms-of-service" className="text-slate-700 hover:text-emerald-700">
                      Términos
                    </Link>
                  </li>
                </>
              )}
            </ul>
          </div>
        ))}
      </div>
      <p className="border-t border-slate-100 py-6 text-center text-xs text-slate-500">
        © {new Date().getFullYear()} Atiende. WhatsApp y Meta son marcas de Meta Platforms, Inc.
      </p>
    </footer>
  );
}
