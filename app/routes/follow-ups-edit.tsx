import { redirect } from "react-router";
import { ManagerFormPage } from "~/components/broadcasts/form-page";
import { type FollowUpChange } from "~/components/follow-ups/actions";
import { followUpAction } from "./follow-ups-action";
import { readFollowUp, readLabels, readTemplates } from "~/components/follow-ups/data";
import { DeleteFollowUp } from "~/components/follow-ups/delete-follow-up";
import { FollowUpForm } from "~/components/follow-ups/follow-up-form";
import { RouteError } from "~/components/route-error";
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
  return (
    <ManagerFormPage
      back="/follow-ups"
      backLabel="Seguimientos"
      title={TITLE}
      description={rule.name}
      actions={<DeleteFollowUp rule={rule} />}
      things="seguimientos"
    >
      <FollowUpForm key={rule.id} rule={rule} templates={templates} labels={labels} />
    </ManagerFormPage>
  );
}
