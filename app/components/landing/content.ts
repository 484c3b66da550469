/** The landing page's copy, as data: the sections render it. */
export const FEATURES = [
  {
    title: "Gestión de conversaciones",
    text: "Todo WhatsApp de tu negocio en una bandeja compartida: filtros, prioridades, estados y asignación a tu equipo.",
    icon: "M4 5h16v11H8l-4 4z",
  },
  {
    title: "Agentes de IA",
    text: "Agentes que responden al momento con la información de tu negocio y pasan la conversación a una persona cuando hace falta.",
    icon: "M12 3a4 4 0 110 8 4 4 0 010-8zM4 21a8 8 0 0116 0",
  },
  {
    title: "Analytics y tracking",
    text: "Cada clic en un anuncio, cada conversación y cada venta, atribuidos a su campaña y enviados a Meta para optimizar tus anuncios.",
    icon: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  },
  {
    title: "Respuestas rápidas",
    text: "Guarda las respuestas que más usas e insértalas en un segundo escribiendo «/» en el chat.",
    icon: "M13 2L3 14h8l-1 8 10-12h-8z",
  },
  {
    title: "Multi-organización",
    text: "Para negocios y agencias: cada organización con su número, sus agentes, su equipo y sus datos, separados.",
    icon: "M3 21V7l9-4 9 4v14M9 21v-6h6v6",
  },
  {
    title: "Seguridad",
    text: "Cifrado en tránsito y en reposo, roles por usuario, registro de auditoría y borrado automático de datos antiguos.",
    icon: "M12 3l8 4v5c0 5-3.5 8-8 9-4.5-1-8-4-8-9V7z",
  },
] as const;

export const FIGURES = [
  { value: "< 30s", label: "Tiempo de respuesta" },
  { value: "+45%", label: "Conversiones" },
  { value: "4.8/5", label: "Satisfacción" },
] as const;

export const STEPS = [
  {
    title: "Conecta",
    text: "Tu número de WhatsApp Business y tu Pixel de Meta, con un solo inicio de sesión de Facebook.",
  },
  {
    title: "Configura",
    text: "Crea tus agentes de IA con el tono y la información de tu negocio, y pruébalos antes de activarlos.",
  },
  {
    title: "Vende",
    text: "Tu equipo y tus agentes atienden en tiempo real; cada conversión vuelve a Meta para atribuir tus anuncios.",
  },
] as const;

/** Footer entries that have no page yet: shown as text, not as links that go nowhere. */
export const FOOTER_PLACEHOLDERS = {
  Producto: ["Características", "Precios", "Integraciones", "API"],
  Recursos: ["Documentación", "Blog", "Soporte", "Estado"],
  Legal: ["Cookies", "Licencias"],
} as const;
