import { UpcomingScreen } from "~/components/upcoming-screen";

export const meta = () => [{ title: "Chats del agente — Atiende" }];

export default function Screen() {
  return (
    <UpcomingScreen
      title="Chats del agente"
      description="Aquí verás las conversaciones que atiende un agente de IA."
    />
  );
}
