import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { FollowUp } from "../../../contracts/follow-ups";
import { asJson } from "~/components/broadcasts/actions";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import type { FollowUpActionResult, FollowUpChange } from "./actions";

/** "Eliminar", asked first; the edit route's action deletes it and goes back to the list. */
export function DeleteFollowUp({ rule }: { rule: FollowUp }) {
  const fetcher = useFetcher<FollowUpActionResult>();
  const [asked, setAsked] = useState(false);
  const busy = fetcher.state !== "idle";

  // Refused (the toast says why): the question closes.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) setAsked(false);
  }, [fetcher.state, fetcher.data]);

  const remove = () => {
    const change: FollowUpChange = { intent: "delete", id: rule.id };
    void fetcher.submit(change, asJson);
  };
  return (
    <>
      <Button variant="secondary" disabled={busy} onClick={() => setAsked(true)}>
        Eliminar
      </Button>
      <ConfirmDialog
        open={asked}
        title={`Eliminar «${rule.name}»`}
        description="Deja de enviarse. Los mensajes que ya envió se quedan en sus conversaciones; sus resultados se borran."
        confirmLabel="Eliminar"
        busyLabel="Eliminando..."
        busy={busy}
        onConfirm={remove}
        onClose={() => setAsked(false)}
      />
    </>
  );
}
