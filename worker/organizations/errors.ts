import { AppError, notFound } from "../http/errors";

/** A user who is not a member of the organization (another organization's member too). */
export const memberNotFound = () => notFound("Miembro no encontrado.");

/** No organization by that id for the caller (onboarding not finished, or another's). */
export const organizationNotFound = () =>
  new AppError(
    404,
    "organization_not_found",
    "Organización no encontrada. Completa el registro de tu organización.",
  );
