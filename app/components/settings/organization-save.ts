import { useState } from "react";
import { organizationUpdateInput, type Organization } from "../../../contracts/organizations";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { useSettingsChange } from "./actions";

/**
 * How the Configuración > Organización sections save the organization: checked as the API
 * checks it, sent to the route's action (`organization.update`), and the session's copy
 * replaced with its answer (the whole console reads the organization from `useAuth`). `save`
 * answers the organization saved, or null when a check or the server refused it (its messages
 * in `errors`, the `failure` toast with the reason).
 */
export function useOrganizationSave(says: { success: string; failure: string }) {
  const auth = useAuth();
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useSettingsChange();

  async function save(changes: Record<string, unknown>): Promise<Organization | null> {
    const checked = validate(organizationUpdateInput, changes);
    if (checked.errors) {
      setErrors(checked.errors);
      return null;
    }
    const result = await change.run({
      intent: "organization.update",
      organizationId: auth.organization!.id,
      values: checked.data,
      says,
    });
    if (!result.ok) {
      setErrors(result.fieldErrors);
      return null;
    }
    setErrors({});
    if (result.organization) auth.setOrganization(result.organization);
    return result.organization ?? null;
  }

  return { save, saving: change.busy, errors, setErrors };
}
