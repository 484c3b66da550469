import { UpcomingScreen } from "~/components/upcoming-screen";

export const meta = () => [{ title: "Conversación — Atiende" }];

export default function Screen() {
  return (
    <UpcomingScreen
      title="Conversación"
      description="Aquí verás los mensajes de una conversación y podrás responder al cliente."
    />
  );
}
