import { PageHeader } from "./page-header";

/** A screen of the console whose feature has not shipped yet: says so plainly. */
export function UpcomingScreen({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} />
      <section className="max-w-2xl rounded-xl border border-dashed border-slate-300 bg-white p-6">
        <p className="text-sm text-slate-600">{description}</p>
        <p className="mt-3 text-xs font-medium uppercase tracking-wide text-slate-400">
          Próximamente
        </p>
      </section>
    </>
  );
}
