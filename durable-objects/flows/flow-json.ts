/**
 * The booking Flow's Flow JSON (WhatsApp Flows 7.3, data API 3.0; decision 0096), uploaded as
 * the Flow's asset when it is registered. Every screen's data comes from the endpoint
 * (`/webhooks/flows`, durable-objects/flows/screens.ts): SERVICE → DAY → SLOT → CONFIRM, and the
 * endpoint's answer to CONFIRM closes the Flow (`SUCCESS`), which WhatsApp turns into the
 * customer's `nfm_reply`. DAY and SLOT refresh on back, so their slots are live again.
 */
export const FLOW_JSON_VERSION = "7.3";
export const FLOW_DATA_API_VERSION = "3.0";

/** The screens, in the order the customer walks them. */
export const FLOW_SCREENS = ["SERVICE", "DAY", "SLOT", "CONFIRM"] as const;
export type FlowScreen = (typeof FLOW_SCREENS)[number];

const options = (example: { id: string; title: string }[]) => ({
  type: "array",
  items: {
    type: "object",
    properties: { id: { type: "string" }, title: { type: "string" } },
  },
  __example__: example,
});
const text = (example: string) => ({ type: "string", __example__: example });

const footer = (label: string, payload: Record<string, string>) => ({
  type: "Footer",
  label,
  "on-click-action": { name: "data_exchange", payload },
});

export const BOOKING_FLOW_JSON = {
  version: FLOW_JSON_VERSION,
  data_api_version: FLOW_DATA_API_VERSION,
  routing_model: { SERVICE: ["DAY"], DAY: ["SLOT"], SLOT: ["CONFIRM"], CONFIRM: [] },
  screens: [
    {
      id: "SERVICE",
      title: "Reservar cita",
      data: { services: options([{ id: "servicio", title: "Limpieza dental (30 min)" }]) },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextHeading", text: "¿Qué quieres reservar?" },
          {
            type: "RadioButtonsGroup",
            name: "service",
            label: "Servicio",
            required: true,
            "data-source": "${data.services}",
          },
          footer("Continuar", { service: "${form.service}" }),
        ],
      },
    },
    {
      id: "DAY",
      title: "Elige el día",
      refresh_on_back: true,
      data: {
        service_name: text("Limpieza dental"),
        days: options([{ id: "2026-12-03", title: "jueves, 3 de diciembre" }]),
      },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextSubheading", text: "${data.service_name}" },
          {
            type: "Dropdown",
            name: "day",
            label: "Día",
            required: true,
            "data-source": "${data.days}",
          },
          footer("Continuar", { day: "${form.day}" }),
        ],
      },
    },
    {
      id: "SLOT",
      title: "Elige la hora",
      refresh_on_back: true,
      data: {
        day_label: text("jueves, 3 de diciembre"),
        slots: options([{ id: "2026-12-03T09:00:00.000Z", title: "10:00" }]),
      },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextSubheading", text: "${data.day_label}" },
          {
            type: "RadioButtonsGroup",
            name: "slot",
            label: "Hora",
            required: true,
            "data-source": "${data.slots}",
          },
          footer("Continuar", { slot: "${form.slot}" }),
        ],
      },
    },
    {
      id: "CONFIRM",
      title: "Confirma tu cita",
      terminal: true,
      data: {
        summary: text("Limpieza dental el 3 de diciembre a las 10:00"),
        payment_note: text("Te enviaremos el enlace de pago para confirmarla."),
      },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextBody", text: "${data.summary}" },
          { type: "TextCaption", text: "${data.payment_note}" },
          footer("Reservar", { confirm: "yes" }),
        ],
      },
    },
  ],
};
