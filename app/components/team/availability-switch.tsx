import { toastFailed } from "~/lib/outcome";
import { Switch } from "~/components/ui/switch";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";

/**
 * The member's own "Disponible" / "Ausente": round robin gives conversations only to those
 * available. Read with the session (`/auth/me`), written on their own member.
 */
export function AvailabilitySwitch() {
  const { user, available, setAvailable } = useAuth();
  if (!user || available === null) return null;

  async function change(next: boolean) {
    setAvailable(next);
    try {
      await data(
        client.organizations.members[":userId"].$patch({
          param: { userId: user!.id },
          json: { available: next },
        }),
      );
    } catch (error) {
      setAvailable(!next);
      toastFailed("No se pudo cambiar tu disponibilidad", error);
    }
  }

  return (
    <div className="mt-2">
      <Switch
        tone="dark"
        checked={available}
        onChange={(next) => void change(next)}
        label={available ? "Disponible" : "Ausente"}
      />
    </div>
  );
}
