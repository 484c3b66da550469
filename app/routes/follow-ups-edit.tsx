import { Link, redirect } from "react-router";
import { ManagerOnly } from "~/components/broadcasts/manager-only";
import { followUpAction, type FollowUpChange } from "~/components/follow-ups/actions";
import { readFollowUp, readLabels, readTemplates } from "~/components/follow-ups/data";
import { DeleteFollowUp } from "~/components/follow-ups/delete-follow-up";
import { FollowUpForm } from "~/components/follow-ups/follow-up-form";
import { RouteError } from "~/components/route-error";
import { useAuth } from "~/lib/auth";
import type { Route } from "./+types/follow-ups-edit";

export const meta = () => [{ title: "Editar seguimiento — Atiende" }];

const TITLE = "Editar seguimiento";

/** The rule, the account's templates and the labels. */
export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const [rule, templates, labels] = await Promise.all([
    readFollowUp(params.followUpId),
    readTemplates(),
    readLabels(),
  ]);
  return { rule, templates, labels };
}

/** Saved or deleted: back to the list. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const result = await followUpAction((await request.json()) as FollowUpChange);
  return result.ok ? redirect("/follow-ups") : result;
}

export function ErrorBoundary() {
  return <RouteError title={TITLE} failure="No se pudo cargar el seguimiento" />;
}

export default function EditFollowUp({
  loaderData: { rule, templates, labels },
}: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  return (
    <>
      <Link to="/follow-ups" className="text-sm font-medium text-emerald-800 hover:underline">
        ← Seguimientos
      </Link>
      <div className="mt-2 mb-6 flex max-w-3xl flex-wrap items-start justify-between gap-3">
        <header className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900">{TITLE}</h1>
          <p className="mt-1 break-words text-sm text-slate-600">{rule.name}</p>
        </header>
        {canManage && <DeleteFollowUp rule={rule} />}
      </div>
      {canManage ? (
        <FollowUpForm key={rule.id} rule={rule} templates={templates} labels={labels} />
      ) : (
        <ManagerOnly back="/follow-ups" things="seguimientos" />
      )}
    </>
  );
}
