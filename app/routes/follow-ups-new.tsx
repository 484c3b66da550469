import { redirect } from "react-router";
import { ManagerFormPage } from "~/components/broadcasts/form-page";
import { type FollowUpChange } from "~/components/follow-ups/actions";
import { followUpAction } from "./follow-ups-action";
import { readLabels, readTemplates } from "~/components/follow-ups/data";
import { FollowUpForm } from "~/components/follow-ups/follow-up-form";
import { RouteError } from "~/components/route-error";
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
  return (
    <ManagerFormPage
      back="/follow-ups"
      backLabel="Seguimientos"
      title={TITLE}
      description="Qué escribir al cliente que no responde, cuándo y a qué conversaciones."
      things="seguimientos"
    >
      <FollowUpForm rule={null} templates={templates} labels={labels} />
    </ManagerFormPage>
  );
}
