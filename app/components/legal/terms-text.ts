import type { LegalText } from "./types";

/** The terms of service in English and Spanish: exactly 9 sections and a closing line. */
export const TERMS_TEXT: LegalText = {
  en: {
    title: "Terms of Service",
    sections: [
      {
        heading: "Acceptance of the Terms",
        blocks: [
          {
            type: "paragraph",
            text: "These terms govern the use of Atiende. By creating an account or using the service, you accept them on your own behalf and on behalf of the organization you represent. If you do not agree with them, do not use Atiende.",
          },
          {
            type: "paragraph",
            text: "We may update these terms when the service or the law changes. We will publish the current version on this page, and continuing to use Atiende after a change takes effect means you accept it.",
          },
        ],
      },
      {
        heading: "Description of the Service",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende is a web console for businesses and agencies that sell through WhatsApp. It lets you:",
          },
          {
            type: "list",
            items: [
              "Connect a WhatsApp Business number (through Meta's WhatsApp Cloud API) and a Meta ad pixel with a single Facebook Login.",
              "Create AI agents that answer your customers and hand the conversation over to a person on your team when needed.",
              "Work a shared inbox in real time: assign conversations, set their status and priority, and reply.",
              "Track sessions and conversions, send conversions to Meta's Conversions API, and view analytics by source and campaign.",
            ],
          },
          {
            type: "paragraph",
            text: "AI agents write replies automatically and can make mistakes. You are responsible for their instructions and for the messages sent in your business's name. Features may change over time as we improve the service.",
          },
        ],
      },
      {
        heading: "Registration and Account",
        blocks: [
          {
            type: "list",
            items: [
              "You must be at least 18 years old and able to enter into a contract to use Atiende.",
              "The information you give us must be true and kept up to date.",
              "Each user belongs to one organization. Team members join an organization by invitation and have one of three roles: owner, admin or agent.",
              "Keep your credentials safe and do not share your password. You are responsible for what happens under your account; if you suspect someone else has accessed it, change your password and write to us at once.",
            ],
          },
        ],
      },
      {
        heading: "Acceptable Use",
        blocks: [
          {
            type: "paragraph",
            text: "When you use Atiende you agree not to:",
          },
          {
            type: "list",
            items: [
              "Send spam or unsolicited messages. Only message people who have agreed (opted in) to receive WhatsApp messages from your business, and stop when they ask you to.",
              "Ignore WhatsApp's 24-hour customer service window: once 24 hours have passed since the customer's last message, you may only send message templates approved by Meta.",
              "Send or store illegal, fraudulent, deceptive, hateful or violent content, or content that infringes other people's rights.",
              "Offer products or services that WhatsApp's policies prohibit.",
              "Try to access other organizations' data, break or overload the service, or get around its security.",
            ],
          },
        ],
      },
      {
        heading: "Platform Compliance",
        blocks: [
          {
            type: "paragraph",
            text: "Using WhatsApp and Meta's advertising tools through Atiende also requires you to comply with Meta's terms and policies, including the Meta Platform Terms, the WhatsApp Business Terms of Service, the WhatsApp Business Policy, the WhatsApp Commerce Policy and the Meta Business Tools Terms.",
          },
          {
            type: "paragraph",
            text: "You are responsible for your own Meta accounts: your business portfolio, WhatsApp Business Account and phone number, ad accounts and pixels, including their settings and any charges Meta applies to them. You must have a valid legal basis, and any consent required, to send your customers' conversion data to Meta.",
          },
          {
            type: "paragraph",
            text: "If Meta restricts or suspends one of your accounts, some Atiende features may stop working. We have no control over Meta's decisions.",
          },
        ],
      },
      {
        heading: "Intellectual Property",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende, its software, design and brand belong to us. While your account is active, we grant you a limited, non-exclusive and non-transferable right to use the service under these terms.",
          },
          {
            type: "paragraph",
            text: "Your content (messages, contacts, agent instructions and tracking data) remains yours. You allow us to process it only as needed to provide the service to you.",
          },
        ],
      },
      {
        heading: "Limitation of Liability",
        blocks: [
          {
            type: "paragraph",
            text: "We work to keep Atiende available, secure and accurate, but the service is provided as it is: we cannot guarantee that it will be uninterrupted or error-free, or that the replies written by AI agents will always be correct.",
          },
          {
            type: "paragraph",
            text: "To the extent the law allows, we are not liable for indirect losses, such as lost profits, lost sales or lost data, nor for failures of third-party services such as Meta, WhatsApp, Cloudflare or the AI model provider. Nothing in these terms limits any liability that cannot be limited by law.",
          },
        ],
      },
      {
        heading: "Termination",
        blocks: [
          {
            type: "paragraph",
            text: "You can stop using Atiende and delete your account at any time from Configuración > Usuario. Before doing so, you can export your data from the same place.",
          },
          {
            type: "paragraph",
            text: "We may suspend or close accounts that break these terms or Meta's policies, or that put the service or other people at risk. When it is reasonable, we will warn you first. When an account is closed, access ends and data is deleted as described in our Privacy Policy.",
          },
        ],
      },
      {
        heading: "Contact",
        blocks: [
          {
            type: "email",
            text: "For any question about these terms, write to",
            address: "soporte@atiende.app",
          },
        ],
      },
    ],
    closing: "By using Atiende you acknowledge that you have read and accept these terms.",
  },
  es: {
    title: "Términos de Servicio",
    sections: [
      {
        heading: "Aceptación de los términos",
        blocks: [
          {
            type: "paragraph",
            text: "Estos términos regulan el uso de Atiende. Al crear una cuenta o usar el servicio, los aceptas en tu propio nombre y en el de la organización a la que representas. Si no estás de acuerdo con ellos, no uses Atiende.",
          },
          {
            type: "paragraph",
            text: "Podemos actualizar estos términos cuando cambie el servicio o la ley. Publicaremos la versión vigente en esta página, y seguir usando Atiende después de que un cambio entre en vigor significa que lo aceptas.",
          },
        ],
      },
      {
        heading: "Descripción del servicio",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende es una consola web para empresas y agencias que venden a través de WhatsApp. Te permite:",
          },
          {
            type: "list",
            items: [
              "Conectar un número de WhatsApp Business (a través de la API de WhatsApp Cloud de Meta) y un píxel de anuncios de Meta con un único inicio de sesión de Facebook.",
              "Crear agentes de IA que responden a tus clientes y pasan la conversación a una persona de tu equipo cuando hace falta.",
              "Trabajar una bandeja de entrada compartida en tiempo real: asignar conversaciones, cambiar su estado y prioridad, y responder.",
              "Hacer seguimiento de sesiones y conversiones, enviar las conversiones a la API de Conversiones de Meta y consultar analíticas por fuente y campaña.",
            ],
          },
          {
            type: "paragraph",
            text: "Los agentes de IA escriben respuestas de forma automática y pueden equivocarse. Eres responsable de sus instrucciones y de los mensajes que se envían en nombre de tu negocio. Las funciones pueden cambiar con el tiempo a medida que mejoramos el servicio.",
          },
        ],
      },
      {
        heading: "Registro y cuenta",
        blocks: [
          {
            type: "list",
            items: [
              "Para usar Atiende debes tener al menos 18 años y capacidad legal para contratar.",
              "La información que nos das debe ser verdadera y mantenerse actualizada.",
              "Cada usuario pertenece a una sola organización. Los miembros del equipo se unen a una organización por invitación y tienen uno de estos tres roles: propietario, administrador o agente.",
              "Mantén tus credenciales a salvo y no compartas tu contraseña. Eres responsable de lo que ocurra con tu cuenta; si sospechas que otra persona ha accedido a ella, cambia tu contraseña y escríbenos de inmediato.",
            ],
          },
        ],
      },
      {
        heading: "Uso aceptable",
        blocks: [
          {
            type: "paragraph",
            text: "Al usar Atiende te comprometes a no:",
          },
          {
            type: "list",
            items: [
              "Enviar spam ni mensajes no solicitados. Escribe solo a personas que hayan aceptado (opt-in) recibir mensajes de WhatsApp de tu negocio, y deja de hacerlo cuando te lo pidan.",
              "Saltarte la ventana de atención al cliente de 24 horas de WhatsApp: cuando han pasado 24 horas desde el último mensaje del cliente, solo puedes enviar plantillas de mensaje aprobadas por Meta.",
              "Enviar o almacenar contenido ilegal, fraudulento, engañoso, de odio o violento, o que vulnere los derechos de otras personas.",
              "Ofrecer productos o servicios que las políticas de WhatsApp prohíben.",
              "Intentar acceder a los datos de otras organizaciones, dañar o sobrecargar el servicio o eludir su seguridad.",
            ],
          },
        ],
      },
      {
        heading: "Cumplimiento de las plataformas",
        blocks: [
          {
            type: "paragraph",
            text: "Usar WhatsApp y las herramientas publicitarias de Meta a través de Atiende también te obliga a cumplir las condiciones y políticas de Meta, entre ellas las Condiciones de la Plataforma de Meta, las Condiciones del Servicio de WhatsApp Business, la Política de WhatsApp Business, la Política de Comercio de WhatsApp y las Condiciones de las Herramientas para empresas de Meta.",
          },
          {
            type: "paragraph",
            text: "Eres responsable de tus propias cuentas de Meta: tu portfolio empresarial, tu cuenta y número de WhatsApp Business, tus cuentas publicitarias y tus píxeles, incluida su configuración y cualquier cargo que Meta les aplique. Debes contar con una base legal válida, y con el consentimiento que sea necesario, para enviar a Meta los datos de conversión de tus clientes.",
          },
          {
            type: "paragraph",
            text: "Si Meta restringe o suspende alguna de tus cuentas, algunas funciones de Atiende pueden dejar de funcionar. No tenemos control sobre las decisiones de Meta.",
          },
        ],
      },
      {
        heading: "Propiedad intelectual",
        blocks: [
          {
            type: "paragraph",
            text: "Atiende, su software, su diseño y su marca nos pertenecen. Mientras tu cuenta esté activa, te concedemos un derecho limitado, no exclusivo e intransferible a usar el servicio de acuerdo con estos términos.",
          },
          {
            type: "paragraph",
            text: "Tu contenido (mensajes, contactos, instrucciones de los agentes y datos de seguimiento) sigue siendo tuyo. Nos autorizas a tratarlo solo en la medida necesaria para prestarte el servicio.",
          },
        ],
      },
      {
        heading: "Limitación de responsabilidad",
        blocks: [
          {
            type: "paragraph",
            text: "Trabajamos para que Atiende esté disponible y sea seguro y preciso, pero el servicio se ofrece tal cual: no podemos garantizar que funcione sin interrupciones ni errores, ni que las respuestas que escriben los agentes de IA sean siempre correctas.",
          },
          {
            type: "paragraph",
            text: "En la medida en que la ley lo permita, no somos responsables de pérdidas indirectas, como el lucro cesante, las ventas perdidas o la pérdida de datos, ni de los fallos de servicios de terceros como Meta, WhatsApp, Cloudflare o el proveedor de modelos de IA. Nada en estos términos limita la responsabilidad que la ley no permite limitar.",
          },
        ],
      },
      {
        heading: "Terminación",
        blocks: [
          {
            type: "paragraph",
            text: "Puedes dejar de usar Atiende y eliminar tu cuenta en cualquier momento desde Configuración > Usuario. Antes de hacerlo, puedes exportar tus datos desde el mismo lugar.",
          },
          {
            type: "paragraph",
            text: "Podemos suspender o cerrar las cuentas que incumplan estos términos o las políticas de Meta, o que pongan en riesgo el servicio o a otras personas. Cuando sea razonable, te avisaremos antes. Al cerrarse una cuenta, el acceso termina y los datos se eliminan como se describe en nuestra Política de Privacidad.",
          },
        ],
      },
      {
        heading: "Contacto",
        blocks: [
          {
            type: "email",
            text: "Si tienes cualquier pregunta sobre estos términos, escribe a",
            address: "soporte@atiende.app",
          },
        ],
      },
    ],
    closing: "Al usar Atiende, reconoces que has leído y aceptas estos términos.",
  },
};
