import { useId } from "react";

const CONTROL_CLASS =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid]:border-red-500";

interface ShellProps {
  label: string;
  required?: boolean;
  error?: string;
  hint?: string;
  className?: string;
  /** Renders the control with the id and ARIA attributes that tie it to its label and messages. */
  children: (control: {
    id: string;
    "aria-invalid"?: true;
    "aria-describedby"?: string;
  }) => React.ReactNode;
}

/** Label, control, and the error (or hint) announced to assistive technology. */
function FieldShell({ label, required, error, hint, className, children }: ShellProps) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
        {required && <span className="text-red-600"> *</span>}
      </label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

type Labelled = { label: string; error?: string; hint?: string };

export function Field({
  label,
  error,
  hint,
  required,
  className,
  ...input
}: Labelled & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldShell label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => <input {...control} className={CONTROL_CLASS} {...input} />}
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  required,
  className,
  ...textarea
}: Labelled & React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldShell label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => <textarea {...control} className={CONTROL_CLASS} {...textarea} />}
    </FieldShell>
  );
}

export function SelectField({
  label,
  error,
  hint,
  options,
  placeholder,
  required,
  className,
  ...select
}: Labelled &
  React.SelectHTMLAttributes<HTMLSelectElement> & {
    options: readonly { value: string; label: string }[];
    placeholder?: string;
  }) {
  return (
    <FieldShell label={label} error={error} hint={hint} required={required} className={className}>
      {(control) => (
        <select {...control} className={CONTROL_CLASS} {...select}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}
