/** What the Seguimientos routes read (the templates and labels as the Difusiones read them). */
import { data as routeData } from "react-router";
import { ApiError, client, data } from "~/lib/api";

export { readLabels, readTemplates } from "~/components/broadcasts/data";

/** The organization's rules, oldest first, with what each has done. */
export const readFollowUps = () => data(client["follow-ups"].$get());

/** One rule; a 404 is the route's "Seguimiento no encontrado". */
export const readFollowUp = (id: string) =>
  data(client["follow-ups"][":id"].$get({ param: { id } })).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      throw routeData("Seguimiento no encontrado", { status: 404 });
    }
    throw error;
  });
