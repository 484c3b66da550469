/**
 * What the pages that create and edit a broadcast or a follow-up share: the link back, the
 * header, the form for owners and admins (what an agent sees instead), the name field and the
 * footer with Cancelar and the save button.
 */
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useAuth } from "~/lib/auth";

/**
 * The page around the form: `back` (`backLabel`) above the title; `actions` beside it and the
 * form (`children`) for owners and admins; an agent is told that they make `things`.
 */
export function ManagerFormPage({
  back,
  backLabel,
  title,
  description,
  actions,
  things = "difusiones",
  children,
}: {
  back: string;
  backLabel: string;
  title: string;
  description?: string;
  actions?: React.ReactNode;
  things?: string;
  children: React.ReactNode;
}) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  return (
    <>
      <Link to={back} className="text-sm font-medium text-emerald-800 hover:underline">
        ← {backLabel}
      </Link>
      <div className="mt-2 mb-6 flex max-w-3xl flex-wrap items-start justify-between gap-3">
        <header className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          {description && <p className="mt-1 break-words text-sm text-slate-600">{description}</p>}
        </header>
        {canManage && actions}
      </div>
      {canManage ? (
        children
      ) : (
        <section className="max-w-xl rounded-xl border border-slate-200 bg-white p-6 text-sm text-slate-700">
          <p>Solo los propietarios y administradores crean y editan {things}.</p>
          <Link
            to={back}
            className="mt-3 inline-block font-medium text-emerald-800 hover:underline"
          >
            Volver
          </Link>
        </section>
      )}
    </>
  );
}

/** The name it goes by on its list (the API's limit). */
export const NameField = (props: Omit<React.ComponentProps<typeof Field>, "label">) => (
  <Field label="Nombre" required maxLength={120} hint="Solo lo ve tu equipo." {...props} />
);

/** Cancelar (back to `cancel`) and the save button, "Guardando..." while it saves. */
export function FormFooter({
  cancel,
  saving,
  label,
}: {
  cancel: string;
  saving: boolean;
  label: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Link
        to={cancel}
        className="inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
      >
        Cancelar
      </Link>
      <Button type="submit" disabled={saving}>
        {saving ? "Guardando..." : label}
      </Button>
    </div>
  );
}
