import { UpcomingScreen } from "~/components/upcoming-screen";

export const meta = () => [{ title: "Gestión de Agentes — Atiende" }];

export default function Screen() {
  return (
    <UpcomingScreen
      title="Gestión de Agentes"
      description="Aquí crearás agentes de IA que responden a tus clientes en WhatsApp y pasan la conversación a una persona cuando hace falta."
    />
  );
}
