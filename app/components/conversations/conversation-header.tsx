import { Link } from "react-router";
import type { Conversation, MarketingOptOutSource } from "../../../contracts/conversations";
import { AssigneeSelect } from "~/components/team/team";
import { Button } from "~/components/ui/button";
import { useConversationWrites } from "./actions";
import { ContactNameEditor } from "./contact-name";
import { contactHandle, contactLabel, StatusBadge, StatusSelect } from "./selectors";
import { Icon } from "~/components/ui/icon";

/** The id of the side panel "Detalles" opens on a wide screen. */
export const DETAILS_PANEL_ID = "conversation-details";

/** "Pedir teléfono": for a customer known by username, while WhatsApp lets us write. */
export function RequestPhoneButton({
  windowOpen,
  onClick,
}: {
  windowOpen: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      variant="secondary"
      className="px-3 py-1.5"
      disabled={!windowOpen}
      title={windowOpen ? undefined : "Solo con la ventana de 24 horas abierta"}
      onClick={onClick}
    >
      Pedir teléfono
    </Button>
  );
}

/**
 * Who the customer is and what people do most: on a wide screen, "Pedir teléfono" (a
 * customer known by username), who holds the conversation and its status; everywhere,
 * "Detalles" (a side panel on a wide screen, a sheet on a narrower one) with the rest.
 * On a narrower screen "←" leads back to the list. Each change's answer goes to `onChange`.
 */
export function ConversationHeader({
  conversation,
  back,
  wide,
  windowOpen,
  onRequestPhone,
  onChange,
  details,
}: {
  conversation: Conversation;
  /** The inbox with its filters, for "←" when the list is not beside. */
  back: string;
  /** The list is beside, and the header has room for the main actions. */
  wide: boolean;
  windowOpen: boolean;
  onRequestPhone: () => void;
  onChange: (updated: Conversation | null) => void;
  details: { shown: boolean; toggle: () => void };
}) {
  const { id } = conversation;
  const { changeStatus, update: updateConversation, assignPerson } = useConversationWrites();
  const handle = contactHandle(conversation);
  return (
    <header className="flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-2 sm:gap-3 sm:px-4">
      {!wide && (
        <Link
          to={back}
          preventScrollReset
          aria-label="Volver a conversaciones"
          title="Volver a conversaciones"
          className="rounded-lg p-2 text-slate-700 hover:bg-slate-100"
        >
          <Icon path="M15 5l-7 7 7 7" />
        </Link>
      )}
      <div className="min-w-0 flex-1">
        <ContactNameEditor
          name={conversation.contact_name}
          label={contactLabel(conversation)}
          onSave={async (contact_name) => onChange(await updateConversation(id, { contact_name }))}
        />
        <p className="flex min-w-0 items-center gap-2 text-sm text-slate-500">
          <StatusBadge status={conversation.status} />
          {conversation.marketing_opt_out && (
            <MarketingOptOutBadge source={conversation.marketing_opt_out.source} />
          )}
          {conversation.contact_name && handle && <span className="truncate">{handle}</span>}
        </p>
      </div>
      {wide && (
        <>
          {!conversation.contact.phone_number && (
            <RequestPhoneButton windowOpen={windowOpen} onClick={onRequestPhone} />
          )}
          <AssigneeSelect
            label="Asignado a"
            value={conversation.assignee_id}
            className="max-w-44 py-1.5"
            onChange={async (userId) => onChange(await assignPerson(id, userId))}
          />
          <StatusSelect
            label="Estado"
            value={conversation.status}
            className="py-1.5"
            onChange={async (status) => onChange(await changeStatus(id, status))}
          />
        </>
      )}
      <DetailsButton wide={wide} {...details} />
    </header>
  );
}

/** How the customer said it, for the badge's tooltip. */
const OPT_OUT_SOURCES: Record<MarketingOptOutSource, string> = {
  meta: "Lo pidió en WhatsApp (Ofertas y anuncios).",
  keyword: "Escribió una palabra de baja (BAJA, STOP...).",
  failed_131050: "Meta rechazó una promoción: el cliente no quiere recibirlas.",
};

/** The customer opted out of marketing: broadcasts and follow-ups leave them out (section 17). */
function MarketingOptOutBadge({ source }: { source: MarketingOptOutSource }) {
  return (
    <span
      title={OPT_OUT_SOURCES[source]}
      className="shrink-0 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800"
    >
      No quiere recibir promociones
    </span>
  );
}

/** "Detalles": the side panel's switch on a wide screen, the sheet's opener on a phone. */
function DetailsButton({
  wide,
  shown,
  toggle,
}: {
  wide: boolean;
  shown: boolean;
  toggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={shown}
      aria-controls={wide ? DETAILS_PANEL_ID : undefined}
      aria-haspopup={wide ? undefined : "dialog"}
      onClick={toggle}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-lg border px-2.5 py-1.5 text-sm font-medium ${shown && wide ? "border-emerald-600 bg-emerald-50 text-emerald-900" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
    >
      <Icon
        path="M5 4h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-14a2 2 0 0 1-2-2v-12a2 2 0 0 1 2-2z M15 4v16"
        className="h-4 w-4"
      />
      Detalles
    </button>
  );
}
