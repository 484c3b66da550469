import { Button } from "~/components/ui/button";

/** No agents yet: what they are for, and (for owners and admins) the way to create the first. */
export function AgentsEmptyState({
  canManage,
  onCreate,
}: {
  canManage: boolean;
  onCreate: () => void;
}) {
  return (
    <section
      aria-labelledby="agents-empty-title"
      className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center"
    >
      <h2 id="agents-empty-title" className="font-semibold text-slate-900">
        Aún no tienes agentes
      </h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
        {canManage
          ? "Crea tu primer agente, pruébalo aquí mismo y elígelo como agente por defecto de tu número en Configuración."
          : "Cuando un administrador cree un agente de IA, aparecerá aquí."}
      </p>
      {canManage && (
        <Button className="mt-4" onClick={onCreate}>
          Crear primer agente
        </Button>
      )}
    </section>
  );
}
