import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { useOrganizationSave } from "./organization-save";

/** The organization's settings that are one number. */
type NumberSetting = "ai_monthly_token_budget" | "max_payment_amount";

interface OrganizationNumberFormProps {
  setting: NumberSetting;
  /** As the server keeps it. */
  saved: number;
  label: string;
  hint: string;
  submitLabel: string;
  says: { success: string; failure: string };
  /** Money (cents allowed, at least 1) rather than a count (whole, from 0). */
  money?: boolean;
  /** Without it the value is shown, disabled, and there is no button. */
  canEdit?: boolean;
  "aria-label"?: string;
  className: string;
  fieldClassName: string;
}

/**
 * One of the organization's numbers and its save button (idle until it changes), saved as the
 * organization's other settings are; an empty field is refused as the API refuses it.
 */
export function OrganizationNumberForm({
  setting,
  saved,
  label,
  hint,
  submitLabel,
  says,
  money = false,
  canEdit = true,
  "aria-label": ariaLabel,
  className,
  fieldClassName,
}: OrganizationNumberFormProps) {
  const [value, setValue] = useState(String(saved));
  const { save, saving, errors } = useOrganizationSave(says);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    void save({ [setting]: value.trim() === "" ? Number.NaN : Number(value) });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={ariaLabel} className={className}>
      <Field
        label={label}
        type="number"
        inputMode={money ? "decimal" : "numeric"}
        min={money ? 1 : 0}
        step={money ? 0.01 : 1}
        className={fieldClassName}
        value={value}
        error={errors[setting]}
        hint={hint}
        disabled={!canEdit || saving}
        onChange={(e) => setValue(e.target.value)}
      />
      {canEdit && (
        <Button type="submit" disabled={saving || value === String(saved)}>
          {saving ? "Guardando..." : submitLabel}
        </Button>
      )}
    </form>
  );
}
