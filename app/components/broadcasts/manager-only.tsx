import { Link } from "react-router";

/** What an agent sees on a screen that only owners and admins use (`things`: what it makes). */
export function ManagerOnly({ back, things = "difusiones" }: { back: string; things?: string }) {
  return (
    <section className="max-w-xl rounded-xl border border-slate-200 bg-white p-6 text-sm text-slate-700">
      <p>Solo los propietarios y administradores crean y editan {things}.</p>
      <Link to={back} className="mt-3 inline-block font-medium text-emerald-800 hover:underline">
        Volver
      </Link>
    </section>
  );
}
