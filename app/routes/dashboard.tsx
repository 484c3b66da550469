import { Link } from "react-router";
import { PageHeader } from "~/components/page-header";
import { useAuth } from "~/lib/auth";

export const meta = () => [{ title: "Dashboard — Atiende" }];

const QUICK_LINKS = [
  { to: "/conversations", label: "Conversaciones", text: "Atiende a tus clientes de WhatsApp" },
  { to: "/agents", label: "Agentes", text: "Crea y ajusta tus agentes de IA" },
  { to: "/tracking", label: "Analytics", text: "Sesiones, conversiones y campañas" },
  { to: "/settings", label: "Configuración", text: "Meta Business, usuario y organización" },
] as const;

export default function Dashboard() {
  const { user, organization } = useAuth();
  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Hola, ${user!.full_name}. Este es el resumen de ${organization!.name}.`}
      />
      <section aria-labelledby="quick-links" className="mt-2">
        <h2 id="quick-links" className="mb-3 text-lg font-semibold">
          Accesos rápidos
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {QUICK_LINKS.map((link) => (
            <li key={link.to}>
              <Link
                to={link.to}
                className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-emerald-400 hover:shadow"
              >
                <span className="font-semibold text-slate-900">{link.label}</span>
                <span className="mt-1 block text-sm text-slate-600">{link.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
