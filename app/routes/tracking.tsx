import { UpcomingScreen } from "~/components/upcoming-screen";

export const meta = () => [{ title: "Tracking & Analytics — Atiende" }];

export default function Screen() {
  return (
    <UpcomingScreen
      title="Tracking & Analytics"
      description="Aquí verás sesiones, conversiones, fuentes y campañas de tus anuncios, y lo que se envía a Meta."
    />
  );
}
