import { format } from "date-fns";
import { es } from "date-fns/locale";
import { useId, useMemo, useState } from "react";
import type { Payment, PaymentStatus } from "../../../contracts/payments";
import { formatMoney } from "~/components/sales/money";
import { Button } from "~/components/ui/button";
import { live } from "~/lib/live-store";
import { useLiveVersion } from "~/lib/use-live";
import { PaymentLinkDialog } from "./payment-link-dialog";
import { SendBookingDialog } from "./send-booking-dialog";

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: "Pendiente",
  paid: "Pagado",
  expired: "Caducado",
  failed: "Fallido",
  refunded: "Reembolsado",
};

const STATUS_TONES: Record<PaymentStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  paid: "bg-emerald-100 text-emerald-900",
  expired: "bg-slate-100 text-slate-700",
  failed: "bg-red-100 text-red-800",
  refunded: "bg-sky-100 text-sky-900",
};

/** What the loader read: the links and the live store's mark when it asked; null: it failed. */
export type LoadedPayments = { payments: Payment[]; asked: number } | null;

/** Newest first, as the API lists them. */
const newestFirst = (a: Payment, b: Payment) => b.created_at.localeCompare(a.created_at);

/**
 * "Pagos": the conversation's payment links with their status, kept current through the live
 * store (`payment_update`, and the link this console just sent), and what a person sends the
 * customer from here: the booking form and a payment link.
 */
export function CustomerPayments({
  conversationId,
  loaded,
}: {
  conversationId: string;
  loaded: LoadedPayments;
}) {
  const id = useId();
  const [open, setOpen] = useState<"booking" | "link" | null>(null);
  const version = useLiveVersion();
  const payments = useMemo(() => {
    if (!loaded) return null;
    const byId = new Map(loaded.payments.map((p) => [p.id, p]));
    for (const p of live.paymentsSince(loaded.asked).values()) {
      if (p.conversation_id === conversationId) byId.set(p.id, p);
    }
    return [...byId.values()].sort(newestFirst);
    // `version` is what changes when the store records a copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, conversationId, version]);

  return (
    <section aria-labelledby={id} className="space-y-2.5 p-4">
      <h2 id={id} className="font-semibold text-slate-900">
        Pagos
      </h2>
      {payments === null ? (
        <p className="text-sm text-red-700">No se pudieron cargar los pagos.</p>
      ) : payments.length === 0 ? (
        <p className="text-sm text-slate-600">Sin enlaces de pago.</p>
      ) : (
        <ul aria-label="Pagos del cliente" className="space-y-2 text-sm">
          {payments.map((p) => (
            <PaymentRow key={p.id} payment={p} />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" className="px-3 py-1.5" onClick={() => setOpen("booking")}>
          Enviar reserva
        </Button>
        <Button variant="secondary" className="px-3 py-1.5" onClick={() => setOpen("link")}>
          Enviar enlace de pago
        </Button>
      </div>
      {open === "booking" && (
        <SendBookingDialog conversationId={conversationId} onClose={() => setOpen(null)} />
      )}
      {open === "link" && (
        <PaymentLinkDialog conversationId={conversationId} onClose={() => setOpen(null)} />
      )}
    </section>
  );
}

function PaymentRow({ payment }: { payment: Payment }) {
  const when = payment.paid_at ?? payment.created_at;
  return (
    <li className="space-y-0.5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium text-slate-900">
          {formatMoney(Number(payment.amount), payment.currency)}
        </span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONES[payment.status]}`}
        >
          {PAYMENT_STATUS_LABELS[payment.status]}
        </span>
      </div>
      <p className="break-words text-slate-700">{payment.description}</p>
      <p className="text-xs text-slate-600">
        {payment.paid_at ? "Pagado el " : "Enviado el "}
        <time dateTime={when}>{format(new Date(when), "d MMM, HH:mm", { locale: es })}</time>
        {" · "}
        <a
          href={payment.url}
          target="_blank"
          rel="noreferrer"
          className="text-emerald-800 underline"
        >
          Abrir enlace
        </a>
      </p>
    </li>
  );
}
