/**
 * Meta's error codes in Spanish, shared by the server (Graph's refusals, webhook failures) and
 * the console (a broadcast's failures by code): plain data, safe to bundle in the browser.
 */
/** Meta error codes the team is likely to meet, in words they can act on. */
export const META_ERROR_TEXT: Record<number, string> = {
  190: "El token de acceso de Meta no es válido o ha caducado. Vuelve a conectar WhatsApp.",
  10: "La app de Meta no tiene permiso para esta acción.",
  200: "La app de Meta no tiene permiso para esta acción.",
  4: "Meta limita las peticiones de la app en este momento. Inténtalo en unos minutos.",
  80007: "Se alcanzó el límite de peticiones de WhatsApp. Inténtalo en unos minutos.",
  130429: "Se alcanzó el límite de envío de WhatsApp. Inténtalo en unos minutos.",
  131000: "WhatsApp no pudo enviar el mensaje por un error desconocido.",
  131005: "La app de Meta no tiene permiso para enviar mensajes desde este número.",
  131008: "Falta un parámetro obligatorio en el mensaje.",
  131009: "Un parámetro del mensaje no es válido.",
  131026: "El mensaje no se pudo entregar: el número puede no tener WhatsApp.",
  131047:
    "Han pasado más de 24 horas desde el último mensaje del cliente: solo se puede enviar una plantilla.",
  // Marketing (contract section 17): Meta's per-user limit is Meta's decision, not a failure.
  131049:
    "Meta no entregó este mensaje de marketing: es su límite de promociones por cliente, no un fallo de la app. No se reintenta; el cliente podrá recibir promociones dentro de 24 horas.",
  131050:
    "El cliente pidió en WhatsApp no recibir mensajes de marketing de este negocio: no se le enviarán promociones.",
  131051: "Tipo de mensaje no admitido.",
  131052: "No se pudo descargar el archivo del cliente.",
  131053: "No se pudo subir el archivo a WhatsApp.",
  // A number shared with the WhatsApp Business app: a first contact (often right after an ad
  // click) or a device the API does not reach. The message is on the phone.
  131060: "Mensaje no compatible: revísalo en el móvil",
  131062:
    "Las plantillas de autenticación no se pueden enviar a un cliente con nombre de usuario sin teléfono.",
  131063: "Tu cuenta desactivó las plantillas de marketing por la API normal de WhatsApp.",
  132000: "El número de parámetros no coincide con la plantilla.",
  132001: "La plantilla no existe o no está aprobada en ese idioma.",
  132015: "La plantilla está en pausa en Meta por su baja calidad.",
  132016: "La plantilla está desactivada en Meta por su baja calidad.",
  133010: "El número de WhatsApp no está registrado.",
  // The Marketing Messages API (contract section 17).
  134100: "La API de Marketing Messages solo envía plantillas de marketing.",
  134101:
    "La plantilla aún no está disponible en la API de Marketing Messages (tarda unos 10 minutos tras aprobarse).",
  134102: "Tu cuenta no está incorporada a la API de Marketing Messages de Meta.",
  368: "La cuenta de WhatsApp Business está temporalmente restringida.",
  100: "Meta rechazó un parámetro de la petición.",
};
