import { useState } from "react";
import { toastDone, toastFailed } from "~/lib/outcome";
import { organizationUpdateInput, type Organization } from "../../../worker/organizations/contract";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { serverFieldErrors, validate, type FieldErrors } from "~/lib/forms";

/**
 * How the Configuración > Organización sections save the organization: checked as the API
 * checks it, PATCHed, and the session's copy replaced with the answer (not a route action: the
 * whole console reads the organization from `useAuth`, decision 0048). `save` answers the
 * organization saved, or null when a check or the server refused it (its messages in `errors`,
 * the `failure` toast with the reason).
 */
export function useOrganizationSave(toasts: { success: string; failure: string }) {
  const auth = useAuth();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  async function save(changes: Record<string, unknown>): Promise<Organization | null> {
    const checked = validate(organizationUpdateInput, changes);
    if (checked.errors) {
      setErrors(checked.errors);
      return null;
    }
    setSaving(true);
    try {
      const updated = await data(
        client.organizations[":id"].$patch({
          param: { id: auth.organization!.id },
          json: checked.data,
        }),
      );
      auth.setOrganization(updated);
      setErrors({});
      toastDone(toasts.success);
      return updated;
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toastFailed(toasts.failure, error);
      return null;
    } finally {
      setSaving(false);
    }
  }

  return { save, saving, errors, setErrors };
}
