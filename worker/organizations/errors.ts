import { notFound } from "../http/errors";

/** A user who is not a member of the organization (another organization's member too). */
export const memberNotFound = () => notFound("Miembro no encontrado.");
