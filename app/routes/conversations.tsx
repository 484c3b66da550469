import { UpcomingScreen } from "~/components/upcoming-screen";

export const meta = () => [{ title: "Conversaciones — Atiende" }];

export default function Screen() {
  return (
    <UpcomingScreen
      title="Conversaciones"
      description="Aquí tu equipo atenderá las conversaciones de WhatsApp en tiempo real: filtros, asignación a agentes, estados y respuestas."
    />
  );
}
