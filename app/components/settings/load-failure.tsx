import { useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";

export const LOAD_ERROR = "Error al cargar las configuraciones";

/** A tab's data could not load: its reason and a retry (the other tabs stay usable). */
export function LoadFailure({ message }: { message: string }) {
  const revalidator = useRevalidator();
  return (
    <div
      role="alert"
      className="max-w-2xl rounded-xl border border-red-200 bg-red-50 p-6 text-sm text-red-800"
    >
      <p className="font-semibold">{LOAD_ERROR}</p>
      <p className="mt-1">{message}</p>
      <Button
        variant="secondary"
        className="mt-4"
        disabled={revalidator.state !== "idle"}
        onClick={() => void revalidator.revalidate()}
      >
        Reintentar
      </Button>
    </div>
  );
}
