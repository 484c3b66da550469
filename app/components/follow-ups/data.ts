/** What the Seguimientos routes read (the templates and labels as the Difusiones read them). */
import { orNotFound } from "~/components/broadcasts/data";
import { client, data } from "~/lib/api";

export { readLabels, readTemplates } from "~/components/broadcasts/data";

/** The organization's rules, oldest first, with what each has done. */
export const readFollowUps = () => data(client["follow-ups"].$get());

/** One rule; a 404 is the route's "Seguimiento no encontrado". */
export const readFollowUp = (id: string) =>
  orNotFound(
    data(client["follow-ups"][":id"].$get({ param: { id } })),
    "Seguimiento no encontrado",
  );
