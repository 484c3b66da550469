import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { Broadcast, BroadcastPreview } from "../../../contracts/broadcasts";
import { formatMoney } from "~/components/sales/money";
import { Button } from "~/components/ui/button";
import { asJson, type BroadcastActionResult, type BroadcastChange } from "./actions";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { formatZoned } from "./zoned-time";
import { customers } from "./labels";

type Asked = "send" | "cancel" | "delete";

const LINK_CLASS =
  "inline-flex items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50";

/** Who the preview says it reaches and what it costs, as the send's question says it. */
function figuresText(preview: BroadcastPreview | null) {
  if (!preview) return "Calculando a cuántos clientes llega y cuánto cuesta...";
  const { amount, currency } = preview.estimated_cost;
  const cost =
    amount === null
      ? `un coste que no se puede estimar en ${currency}`
      : `unos ${formatMoney(amount, currency)} (estimación)`;
  return `Según la vista previa llega a ${customers(preview.recipients)} y cuesta ${cost}.`;
}

/** What each question says, for this broadcast (sending: with the preview's figures). */
function question(asked: Asked, b: Broadcast, timeZone: string, preview: BroadcastPreview | null) {
  const at = b.send_at ? formatZoned(b.send_at, timeZone) : "";
  const figures = figuresText(preview);
  switch (asked) {
    case "send":
      if (b.status === "scheduled") {
        return {
          title: `Enviar «${b.name}» ahora`,
          description: `${figures} Se envía ya, en lugar del ${at}, a los clientes que cumplan la audiencia en este momento.`,
          confirmLabel: "Enviar ahora",
          busyLabel: "Enviando...",
          danger: false,
        };
      }
      if (b.send_at) {
        return {
          title: `Programar «${b.name}»`,
          description: `${figures} Se enviará el ${at} (${timeZone}) a los clientes que cumplan la audiencia entonces. Hasta ese momento puedes editarla o cancelarla.`,
          confirmLabel: "Programar",
          busyLabel: "Programando...",
          danger: false,
        };
      }
      return {
        title: `Enviar «${b.name}»`,
        description: `${figures} Se envía ahora a los clientes que cumplan la audiencia en este momento, respetando el horario de descanso, el límite diario de tu cuenta y tu presupuesto de marketing. Mientras se envía puedes pausarla o cancelarla.`,
        confirmLabel: "Enviar ahora",
        busyLabel: "Enviando...",
        danger: false,
      };
    case "cancel":
      return {
        title: `Cancelar «${b.name}»`,
        description:
          b.status === "scheduled"
            ? "No se enviará: la difusión queda cancelada y no se puede volver a programar."
            : "Los clientes que aún no la han recibido ya no la recibirán. Lo ya enviado no se puede retirar.",
        confirmLabel: "Cancelar difusión",
        busyLabel: "Cancelando...",
        danger: true,
      };
    case "delete":
      return {
        title: `Eliminar «${b.name}»`,
        description: "Se borra el borrador. No se ha enviado nada.",
        confirmLabel: "Eliminar",
        busyLabel: "Eliminando...",
        danger: true,
      };
  }
}

/**
 * A manager's buttons for the broadcast, by its status: send or schedule, edit and delete a
 * draft; send now, edit or cancel a scheduled one; pause or resume and cancel one sending.
 * Sending, cancelling and deleting ask first; sending says the preview's recipients and cost
 * and sends them as the figures confirmed (the server refuses, with the new ones, a send of
 * more than 1,000 whose figures moved: the page then reads the preview again).
 */
export function BroadcastControls({
  broadcast,
  timeZone,
  preview,
}: {
  broadcast: Broadcast;
  timeZone: string;
  /** The loader's preview, while the broadcast can still be sent. */
  preview: Promise<BroadcastPreview> | null;
}) {
  const fetcher = useFetcher<BroadcastActionResult>();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [figures, setFigures] = useState<BroadcastPreview | null>(null);
  useEffect(() => {
    let current = true;
    setFigures(null);
    preview?.then(
      (answer) => current && setFigures(answer),
      () => undefined, // The preview panel says why.
    );
    return () => {
      current = false;
    };
  }, [preview]);
  const busy = fetcher.state !== "idle";
  /** The change on its way, if any. */
  const pending = busy ? (fetcher.json as BroadcastChange | undefined)?.intent : undefined;
  const { id, status } = broadcast;

  // Answered (done or refused, the toast says which): the question closes.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) setAsked(null);
  }, [fetcher.state, fetcher.data]);

  const run = (intent: Exclude<BroadcastChange["intent"], "create" | "update" | "send">) =>
    void fetcher.submit({ intent, id } satisfies BroadcastChange, asJson);
  const send = () =>
    void fetcher.submit(
      {
        intent: "send",
        id,
        confirm: figures
          ? {
              confirm_recipients: figures.recipients,
              confirm_cost: figures.estimated_cost.amount,
            }
          : {},
      } satisfies BroadcastChange,
      asJson,
    );

  const shown = asked ? question(asked, broadcast, timeZone, figures) : null;
  const edit = (
    <Link to={`/broadcasts/${id}/edit`} className={LINK_CLASS}>
      Editar
    </Link>
  );
  const cancel = (
    <Button variant="secondary" disabled={busy} onClick={() => setAsked("cancel")}>
      Cancelar difusión
    </Button>
  );

  let buttons: React.ReactNode;
  switch (status) {
    case "draft":
      buttons = (
        <>
          <Button disabled={busy} onClick={() => setAsked("send")}>
            {broadcast.send_at ? "Programar envío" : "Enviar ahora"}
          </Button>
          {edit}
          <Button variant="ghost" disabled={busy} onClick={() => setAsked("delete")}>
            Eliminar
          </Button>
        </>
      );
      break;
    case "scheduled":
      buttons = (
        <>
          <Button disabled={busy} onClick={() => setAsked("send")}>
            Enviar ahora
          </Button>
          {edit}
          {cancel}
        </>
      );
      break;
    case "sending":
      buttons = (
        <>
          <Button variant="secondary" disabled={busy} onClick={() => run("pause")}>
            {pending === "pause" ? "Pausando..." : "Pausar"}
          </Button>
          {cancel}
        </>
      );
      break;
    case "paused":
      buttons = (
        <>
          <Button disabled={busy} onClick={() => run("resume")}>
            {pending === "resume" ? "Reanudando..." : "Reanudar"}
          </Button>
          {cancel}
        </>
      );
      break;
    default:
      return null;
  }

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Acciones de la difusión">
      {buttons}
      {shown && asked && (
        <ConfirmDialog
          open
          dismissLabel="Volver"
          {...shown}
          busy={busy}
          onConfirm={() => (asked === "send" ? send() : run(asked))}
          onClose={() => setAsked(null)}
        />
      )}
    </div>
  );
}
