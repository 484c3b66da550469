import { useId } from "react";
import { StatusBadge, type ConnectionStatus } from "./meta/status-badge";

interface StatusSectionProps {
  title: string;
  status: ConnectionStatus;
  /** What the status means, in a sentence. */
  description: React.ReactNode;
  icon?: React.ReactNode;
  /** The section's width and how its body is spaced. */
  className: string;
  children: React.ReactNode;
}

/** A settings block with a state (a connection, a published form): a region named by its title. */
export function StatusSection({
  title,
  status,
  description,
  icon,
  className,
  children,
}: StatusSectionProps) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`min-w-0 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 ${className}`}
    >
      <header className="flex items-start gap-3">
        {icon && (
          <span
            aria-hidden
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-700"
          >
            {icon}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={`${id}-title`} className="font-semibold text-slate-900">
              {title}
            </h2>
            <StatusBadge status={status} label="Estado" />
          </div>
          <p className="mt-1 text-sm text-slate-600">{description}</p>
        </div>
      </header>
      {children}
    </section>
  );
}
