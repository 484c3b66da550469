/** The loading state of a screen: 'Cargando...' as the spec says. */
export function Spinner({ label = "Cargando..." }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 p-12 text-slate-600">
      <span
        aria-hidden
        className="h-6 w-6 animate-spin rounded-full border-2 border-emerald-600 border-t-transparent"
      />
      <span>{label}</span>
    </div>
  );
}
