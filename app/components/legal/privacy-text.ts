import type { LegalText } from "./types";

/** The privacy policy in English and Spanish: exactly 12 sections, in the same order. */
export const PRIVACY_TEXT: LegalText = {
  en: {
    title: "Privacy Policy",
    sections: [
      {
        heading: "Introduction",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende is a web console that helps businesses and agencies manage their WhatsApp Business conversations, answer customers with AI agents that can hand the conversation over to a person on the team, and measure the conversions that come from their Meta ads.",
          },
          {
            type: "paragraph",
            text: "This policy explains, in plain language, what personal data we process when you use Atiende, why we process it, who we share it with, how long we keep it and which rights you have.",
          },
          {
            type: "paragraph",
            text: "Each organization that uses Atiende decides why and how the data of its own customers (their conversations and tracking data) is processed. We process that data on the organization's behalf and only to provide the service.",
          },
        ],
      },
      {
        heading: "Information We Collect",
        blocks: [
          {
            type: "subsection",
            heading: "Account data",
            blocks: [
              {
                type: "list",
                items: [
                  "Your full name and e-mail address.",
                  "Organization information you enter: name, industry, description, address, city, country, size, services offered, business hours and how you plan to use AI.",
                  "Credentials: the access tokens of the Meta accounts you connect, stored encrypted, and your password, stored only as a salted one-way hash that cannot be reversed.",
                ],
              },
            ],
          },
          {
            type: "subsection",
            heading: "Conversation data",
            blocks: [
              {
                type: "list",
                items: [
                  "Messages sent and received through your connected WhatsApp Business number, including those written by AI agents and by your team.",
                  "Contact phone numbers and the names your contacts use on WhatsApp.",
                  "Conversation metadata: dates, statuses, priorities and the agent each conversation is assigned to.",
                ],
              },
            ],
          },
          {
            type: "subsection",
            heading: "Tracking data",
            blocks: [
              {
                type: "list",
                items: [
                  "Pixel events and conversions: event name, time, value and the phone number they relate to.",
                  "Campaign tracking parameters: fbclid, gclid, utm_source, utm_medium, utm_campaign, utm_term, utm_content, ref, and ad, ad set and campaign ids.",
                  "Session and device data: browser user agent, referring page, landing page and, where available, IP address.",
                ],
              },
            ],
          },
        ],
      },
      {
        heading: "How We Use Information",
        blocks: [
          {
            type: "list",
            items: [
              "To provide the console: signing in, your organization and its team, and the shared inbox.",
              "To send and receive WhatsApp messages on your behalf through Meta's WhatsApp Cloud API.",
              "To let your AI agents draft replies, based on the instructions you give them and on the conversation.",
              "To measure sessions, conversions, sources and campaigns, and, when you connect a pixel or a WhatsApp Business Account, to send conversion events to Meta's Conversions API. Phone numbers are hashed with SHA-256 before they are sent.",
              "To keep the service secure: limiting repeated failed sign-ins and recording security events.",
              "To contact you about your account and important changes to the service.",
            ],
          },
          {
            type: "paragraph",
            text: "We do not use your data to show you advertising, and we do not use your conversations to train AI models.",
          },
        ],
      },
      {
        heading: "How We Share Information",
        blocks: [
          {
            type: "paragraph",
            text: "We do not sell personal data. We only share it with the providers (sub-processors) we need to run Atiende:",
          },
          {
            type: "list",
            items: [
              "Cloudflare, which hosts the application and its database.",
              "Meta Platforms, through the WhatsApp Cloud API (to send and receive your messages) and the Conversions API (to receive the conversion events you track).",
              "The AI model provider (an OpenAI-compatible service such as OpenRouter and the model it routes to), which receives an agent's instructions and the conversation content needed to draft that agent's reply.",
            ],
          },
          {
            type: "paragraph",
            text: "Within your organization, team members can see the organization's conversations according to their role. We may also disclose data when the law requires it, for example in response to a valid order from a court or public authority.",
          },
        ],
      },
      {
        heading: "Data Security",
        blocks: [
          {
            type: "list",
            items: [
              "Encryption in transit: every connection uses TLS (HTTPS).",
              "Encryption at rest: the database is encrypted by our hosting provider, and Meta access tokens are additionally encrypted with AES-GCM before they are stored.",
              "Token-based authentication with revocable sessions: signing out or deleting your account invalidates its token.",
              "Role-based access control with three roles: owner, admin and agent. Owners and admins manage settings, agents and connections; every member works on conversations.",
              "An audit log of security events, such as sign-ins, failed sign-ins and changes to the organization.",
              "Automatic backups of the database.",
            ],
          },
          {
            type: "paragraph",
            text: "No system is completely secure. If a security breach affects your personal data, we will inform you and the competent authorities as the law requires.",
          },
        ],
      },
      {
        heading: "Data Retention",
        blocks: [
          {
            type: "paragraph",
            text: "Conversation data (conversations, messages, tracking sessions and conversions) is kept for 2 years from its last activity and is then deleted automatically by a daily job.",
          },
          {
            type: "paragraph",
            text: "Account data is kept while your account exists. You may request the deletion of your account at any time. Deleting it ends your sessions and removes your personal data; if you are the sole owner of your organization, the organization and all its data are deleted too.",
          },
          {
            type: "paragraph",
            text: "Deleted data may remain in the database's automatic backups for up to 30 days, until those backups expire.",
          },
        ],
      },
      {
        heading: "Your Rights",
        blocks: [
          {
            type: "paragraph",
            text: "You have the right to:",
          },
          {
            type: "list",
            items: [
              "Access the personal data we hold about you.",
              "Rectification of data that is inaccurate or incomplete.",
              "Deletion of your data.",
              "Portability: receiving your data in a structured, machine-readable format.",
              "Objection to certain processing of your data.",
              "Restriction of processing in the cases the law provides.",
            ],
          },
          {
            type: "paragraph",
            text: "You can exercise several of these rights yourself in the console, under Configuración > Usuario: export your data as a JSON file, correct your name, and delete your account (we ask for your password to confirm). For anything else, write to privacidad@atiende.app and we will answer within the time limits set by law.",
          },
          {
            type: "paragraph",
            text: "If you wrote to a business through WhatsApp, that business controls your data: please contact it first, and we will help it answer your request. You may also complain to your data protection authority.",
          },
        ],
      },
      {
        heading: "Cookies and Local Storage",
        blocks: [
          {
            type: "paragraph",
            text: "The console does not use advertising cookies. It keeps two items in your browser's local storage:",
          },
          {
            type: "list",
            items: [
              "auth_token: your session token, so that you stay signed in.",
              "tracking_session_id: the identifier of the current tracking session, so that a visit's campaign parameters can be linked to its conversions.",
            ],
          },
          {
            type: "paragraph",
            text: "The Facebook SDK is loaded only when you connect Meta Business; at that moment Meta may set its own cookies under its own policy. You can clear local storage at any time from your browser settings.",
          },
          {
            type: "paragraph",
            text: "If a business uses Atiende's tracking script on its own website, that business is responsible for informing its visitors and for obtaining any consent the law requires.",
          },
        ],
      },
      {
        heading: "International Transfers",
        blocks: [
          {
            type: "paragraph",
            text: "Our providers may process data outside your country, including in the United States. Cloudflare runs a global network, so a request may be handled in the data center closest to you.",
          },
          {
            type: "paragraph",
            text: "When personal data leaves the European Economic Area, the transfer relies on the safeguards the law requires, such as the European Commission's Standard Contractual Clauses or the EU-U.S. Data Privacy Framework for certified providers.",
          },
        ],
      },
      {
        heading: "Platform Compliance",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende connects to Meta's platforms and complies with the Meta Platform Terms, the WhatsApp Business Policy and the WhatsApp Commerce Policy. Data received from Meta is used only to provide the features you enable, and it is never sold.",
          },
          {
            type: "paragraph",
            text: "You can disconnect your WhatsApp number or your pixel at any time from Configuración, and remove Atiende's access from your Facebook settings. To have the data received from Meta deleted, follow the steps in the Your Rights section.",
          },
        ],
      },
      {
        heading: "Changes to This Policy",
        blocks: [
          {
            type: "paragraph",
            text: "We may update this policy when the product or the law changes, and we will always publish the current version on this page. If a change significantly affects how we use your data, we will let you know before it applies.",
          },
        ],
      },
      {
        heading: "Contact",
        blocks: [
          {
            type: "email",
            text: "For any question about this policy or about your data, write to",
            address: "privacidad@atiende.app",
          },
        ],
      },
    ],
  },
  es: {
    title: "Política de Privacidad",
    sections: [
      {
        heading: "Introducción",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende es una consola web que ayuda a empresas y agencias a gestionar sus conversaciones de WhatsApp Business, responder a sus clientes con agentes de IA que pueden pasar la conversación a una persona del equipo y medir las conversiones que generan sus anuncios de Meta.",
          },
          {
            type: "paragraph",
            text: "Esta política explica, con un lenguaje claro, qué datos personales tratamos cuando usas Atiende, para qué los tratamos, con quién los compartimos, cuánto tiempo los conservamos y qué derechos tienes.",
          },
          {
            type: "paragraph",
            text: "Cada organización que usa Atiende decide para qué y cómo se tratan los datos de sus propios clientes (sus conversaciones y datos de seguimiento). Nosotros tratamos esos datos por cuenta de la organización y solo para prestar el servicio.",
          },
        ],
      },
      {
        heading: "Información que recopilamos",
        blocks: [
          {
            type: "subsection",
            heading: "Datos de la cuenta",
            blocks: [
              {
                type: "list",
                items: [
                  "Tu nombre completo y tu dirección de correo electrónico.",
                  "La información de la organización que introduces: nombre, sector, descripción, dirección, ciudad, país, tamaño, servicios que ofrece, horario de atención y el uso que piensas dar a la IA.",
                  "Credenciales: los tokens de acceso de las cuentas de Meta que conectas, que guardamos cifrados, y tu contraseña, que guardamos solo como un hash con sal que no se puede revertir.",
                ],
              },
            ],
          },
          {
            type: "subsection",
            heading: "Datos de las conversaciones",
            blocks: [
              {
                type: "list",
                items: [
                  "Los mensajes enviados y recibidos a través de tu número de WhatsApp Business conectado, incluidos los que escriben los agentes de IA y tu equipo.",
                  "Los números de teléfono de los contactos y el nombre que usan en WhatsApp.",
                  "Los metadatos de las conversaciones: fechas, estados, prioridades y el agente al que está asignada cada conversación.",
                ],
              },
            ],
          },
          {
            type: "subsection",
            heading: "Datos de seguimiento",
            blocks: [
              {
                type: "list",
                items: [
                  "Eventos del píxel y conversiones: nombre del evento, fecha y hora, valor y el número de teléfono al que se refieren.",
                  "Parámetros de seguimiento de campañas: fbclid, gclid, utm_source, utm_medium, utm_campaign, utm_term, utm_content, ref e identificadores de anuncio, conjunto de anuncios y campaña.",
                  "Datos de la sesión y del dispositivo: el agente de usuario del navegador, la página de referencia, la página de destino y, cuando está disponible, la dirección IP.",
                ],
              },
            ],
          },
        ],
      },
      {
        heading: "Cómo usamos la información",
        blocks: [
          {
            type: "list",
            items: [
              "Para prestar la consola: el inicio de sesión, tu organización y su equipo, y la bandeja de entrada compartida.",
              "Para enviar y recibir mensajes de WhatsApp en tu nombre a través de la API de WhatsApp Cloud de Meta.",
              "Para que tus agentes de IA redacten respuestas a partir de las instrucciones que les das y de la conversación.",
              "Para medir sesiones, conversiones, fuentes y campañas y, cuando conectas un píxel o una cuenta de WhatsApp Business, enviar los eventos de conversión a la API de Conversiones de Meta. Los números de teléfono se transforman con un hash SHA-256 antes de enviarlos.",
              "Para mantener la seguridad del servicio: limitar los intentos fallidos de inicio de sesión repetidos y registrar los eventos de seguridad.",
              "Para comunicarnos contigo sobre tu cuenta y sobre cambios importantes en el servicio.",
            ],
          },
          {
            type: "paragraph",
            text: "No usamos tus datos para mostrarte publicidad ni usamos tus conversaciones para entrenar modelos de IA.",
          },
        ],
      },
      {
        heading: "Cómo compartimos la información",
        blocks: [
          {
            type: "paragraph",
            text: "No vendemos datos personales. Solo los compartimos con los proveedores (encargados del tratamiento) que necesitamos para que Atiende funcione:",
          },
          {
            type: "list",
            items: [
              "Cloudflare, que aloja la aplicación y su base de datos.",
              "Meta Platforms, a través de la API de WhatsApp Cloud (para enviar y recibir tus mensajes) y de la API de Conversiones (para recibir los eventos de conversión que registras).",
              "El proveedor de modelos de IA (un servicio compatible con OpenAI, como OpenRouter, y el modelo al que dirige la petición), que recibe las instrucciones de un agente y el contenido de la conversación necesario para redactar la respuesta de ese agente.",
            ],
          },
          {
            type: "paragraph",
            text: "Dentro de tu organización, los miembros del equipo pueden ver las conversaciones de la organización según su rol. También podemos comunicar datos cuando la ley lo exija, por ejemplo ante una orden válida de un juzgado o de una autoridad pública.",
          },
        ],
      },
      {
        heading: "Seguridad de los datos",
        blocks: [
          {
            type: "list",
            items: [
              "Cifrado en tránsito: todas las conexiones usan TLS (HTTPS).",
              "Cifrado en reposo: nuestro proveedor de alojamiento cifra la base de datos y, además, los tokens de acceso de Meta se cifran con AES-GCM antes de guardarlos.",
              "Autenticación basada en tokens con sesiones revocables: al cerrar sesión o eliminar tu cuenta, su token deja de ser válido.",
              "Control de acceso basado en roles, con tres roles: propietario, administrador y agente. Los propietarios y administradores gestionan la configuración, los agentes y las conexiones; todos los miembros trabajan en las conversaciones.",
              "Un registro de auditoría de los eventos de seguridad, como los inicios de sesión, los intentos fallidos y los cambios en la organización.",
              "Copias de seguridad automáticas de la base de datos.",
            ],
          },
          {
            type: "paragraph",
            text: "Ningún sistema es completamente seguro. Si una brecha de seguridad afecta a tus datos personales, te informaremos a ti y a las autoridades competentes como exige la ley.",
          },
        ],
      },
      {
        heading: "Conservación de los datos",
        blocks: [
          {
            type: "paragraph",
            text: "Los datos de las conversaciones (conversaciones, mensajes, sesiones de seguimiento y conversiones) se conservan durante 2 años desde su última actividad y después un proceso diario los elimina automáticamente.",
          },
          {
            type: "paragraph",
            text: "Los datos de la cuenta se conservan mientras tu cuenta exista. Puedes solicitar la eliminación de tu cuenta en cualquier momento. Al eliminarla se cierran tus sesiones y se borran tus datos personales; si eres el único propietario de tu organización, también se eliminan la organización y todos sus datos.",
          },
          {
            type: "paragraph",
            text: "Los datos eliminados pueden permanecer hasta 30 días en las copias de seguridad automáticas de la base de datos, hasta que esas copias caducan.",
          },
        ],
      },
      {
        heading: "Tus derechos",
        blocks: [
          {
            type: "paragraph",
            text: "Tienes derecho a:",
          },
          {
            type: "list",
            items: [
              "Acceso a los datos personales que tenemos sobre ti.",
              "Rectificación de los datos inexactos o incompletos.",
              "Eliminación de tus datos.",
              "Portabilidad: recibir tus datos en un formato estructurado y legible por máquina.",
              "Oposición a determinados tratamientos de tus datos.",
              "Limitación del tratamiento en los casos que prevé la ley.",
            ],
          },
          {
            type: "paragraph",
            text: "Puedes ejercer varios de estos derechos tú mismo en la consola, en Configuración > Usuario: exportar tus datos en un archivo JSON, corregir tu nombre y eliminar tu cuenta (te pedimos la contraseña para confirmarlo). Para cualquier otra solicitud, escribe a privacidad@atiende.app y te responderemos dentro de los plazos que marca la ley.",
          },
          {
            type: "paragraph",
            text: "Si escribiste a una empresa por WhatsApp, esa empresa es responsable de tus datos: contacta primero con ella y nosotros la ayudaremos a atender tu solicitud. También puedes presentar una reclamación ante tu autoridad de protección de datos.",
          },
        ],
      },
      {
        heading: "Cookies y almacenamiento local",
        blocks: [
          {
            type: "paragraph",
            text: "La consola no usa cookies publicitarias. Guarda dos elementos en el almacenamiento local de tu navegador:",
          },
          {
            type: "list",
            items: [
              "auth_token: tu token de sesión, para que no tengas que volver a iniciar sesión.",
              "tracking_session_id: el identificador de la sesión de seguimiento actual, para poder relacionar los parámetros de campaña de una visita con sus conversiones.",
            ],
          },
          {
            type: "paragraph",
            text: "El SDK de Facebook solo se carga cuando conectas Meta Business; en ese momento Meta puede instalar sus propias cookies según su propia política. Puedes borrar el almacenamiento local cuando quieras desde la configuración de tu navegador.",
          },
          {
            type: "paragraph",
            text: "Si una empresa usa el script de seguimiento de Atiende en su propio sitio web, esa empresa es responsable de informar a sus visitantes y de obtener el consentimiento que exija la ley.",
          },
        ],
      },
      {
        heading: "Transferencias internacionales",
        blocks: [
          {
            type: "paragraph",
            text: "Nuestros proveedores pueden tratar datos fuera de tu país, incluso en los Estados Unidos. Cloudflare opera una red global, por lo que una petición puede atenderse en el centro de datos más cercano a ti.",
          },
          {
            type: "paragraph",
            text: "Cuando los datos personales salen del Espacio Económico Europeo, la transferencia se apoya en las garantías que exige la ley, como las cláusulas contractuales tipo de la Comisión Europea o el Marco de Privacidad de Datos UE-EE. UU. para los proveedores certificados.",
          },
        ],
      },
      {
        heading: "Cumplimiento de las plataformas",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende se conecta a las plataformas de Meta y cumple las Condiciones de la Plataforma de Meta, la Política de WhatsApp Business y la Política de Comercio de WhatsApp. Los datos que recibimos de Meta se usan solo para prestar las funciones que activas y nunca se venden.",
          },
          {
            type: "paragraph",
            text: "Puedes desconectar tu número de WhatsApp o tu píxel en cualquier momento desde Configuración y retirar el acceso de Atiende desde la configuración de tu cuenta de Facebook. Para que se eliminen los datos recibidos de Meta, sigue los pasos de la sección Tus derechos.",
          },
        ],
      },
      {
        heading: "Cambios en esta política",
        blocks: [
          {
            type: "paragraph",
            text: "Podemos actualizar esta política cuando cambie el producto o la ley, y siempre publicaremos la versión vigente en esta página. Si un cambio afecta de forma importante al uso que hacemos de tus datos, te avisaremos antes de que se aplique.",
          },
        ],
      },
      {
        heading: "Contacto",
        blocks: [
          {
            type: "email",
            text: "Si tienes cualquier pregunta sobre esta política o sobre tus datos, escribe a",
            address: "privacidad@atiende.app",
          },
        ],
      },
    ],
  },
};
