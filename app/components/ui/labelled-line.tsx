/**
 * A control on one line of a panel, its name on the left. The control carries its own
 * accessible name (`aria-label`), which starts with the words shown here.
 */
export function LabelledLine({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_minmax(0,1fr)] items-center gap-2 text-sm">
      <span aria-hidden className="text-slate-600">
        {label}
      </span>
      {children}
    </div>
  );
}
