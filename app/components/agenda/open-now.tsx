/** "Abierto ahora" / "Cerrado ahora" by the opening hours (nothing until they are set). */
export function OpenNow({ open }: { open: boolean | null }) {
  if (open === null) return null;
  return (
    <span
      className={`rounded-full px-3 py-1 text-sm font-medium ${open ? "bg-emerald-100 text-emerald-900" : "bg-slate-200 text-slate-800"}`}
    >
      {open ? "Abierto ahora" : "Cerrado ahora"}
    </span>
  );
}
