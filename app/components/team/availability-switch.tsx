import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Switch } from "~/components/ui/switch";
import { client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";

/**
 * The member's own "Disponible" / "Ausente": round robin gives conversations only to those
 * available. Read from the members list, written on their own member.
 */
export function AvailabilitySwitch() {
  const { user } = useAuth();
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    if (!user) return;
    let current = true;
    data(client.organizations.members.$get())
      .then((members) => {
        const me = members.find((m) => m.user_id === user.id);
        if (current && me) setAvailable(me.available);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [user]);
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
      toast.error("No se pudo cambiar tu disponibilidad", { description: errorMessage(error) });
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
