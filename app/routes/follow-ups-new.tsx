import { Link, redirect } from "react-router";
import { ManagerOnly } from "~/components/broadcasts/manager-only";
import { followUpAction, type FollowUpChange } from "~/components/follow-ups/actions";
import { readLabels, readTemplates } from "~/components/follow-ups/data";
import { FollowUpForm } from "~/components/follow-ups/follow-up-form";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { useAuth } from "~/lib/auth";
import type { Route } from "./+types/follow-ups-new";

export const meta = () => [{ title: "Nuevo seguimiento — Atiende" }];

const TITLE = "Nuevo seguimiento";

/** The account's templates and the organization's labels, side by side. */
export async function clientLoader() {
  const [templates, labels] = await Promise.all([readTemplates(), readLabels()]);
  return { templates, labels };
}

/** Created: back to the list, where it shows with its switch. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const result = await followUpAction((await request.json()) as FollowUpChange);
  return result.ok ? redirect("/follow-ups") : result;
}

export function ErrorBoundary() {
  return <RouteError title={TITLE} failure="No se pudo preparar el formulario" />;
}

export default function NewFollowUp({ loaderData: { templates, labels } }: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  return (
    <>
      <Link to="/follow-ups" className="text-sm font-medium text-emerald-800 hover:underline">
        ← Seguimientos
      </Link>
      <div className="mt-2">
        <PageHeader
          title={TITLE}
          description="Qué escribir al cliente que no responde, cuándo y a qué conversaciones."
        />
      </div>
      {canManage ? (
        <FollowUpForm rule={null} templates={templates} labels={labels} />
      ) : (
        <ManagerOnly back="/follow-ups" things="seguimientos" />
      )}
    </>
  );
}
