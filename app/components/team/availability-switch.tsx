import { Field, Label, Switch } from "@headlessui/react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
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
    <Field className="mt-2 flex items-center gap-2">
      <Switch
        checked={available}
        onChange={(next) => void change(next)}
        className="group relative inline-flex h-5 w-9 shrink-0 items-center rounded-full bg-slate-600 transition data-[checked]:bg-emerald-500"
      >
        <span className="inline-block h-4 w-4 translate-x-0.5 rounded-full bg-white transition group-data-[checked]:translate-x-4" />
      </Switch>
      <Label className="text-sm text-slate-300">{available ? "Disponible" : "Ausente"}</Label>
    </Field>
  );
}
