import {
  Features,
  Figures,
  Hero,
  HowItWorks,
  LandingFooter,
  LandingHeader,
  PrivacyCallout,
} from "~/components/landing/sections";

export const meta = () => [
  { title: "Atiende — Conversaciones de WhatsApp con IA y tracking de anuncios" },
  {
    name: "description",
    content:
      "Atiende a tus clientes de WhatsApp con tu equipo y agentes de IA, y envía cada conversión a Meta para medir tus anuncios.",
  },
];

export default function Landing() {
  return (
    <>
      <LandingHeader />
      <main>
        <Hero />
        <Figures />
        <Features />
        <HowItWorks />
        <PrivacyCallout />
      </main>
      <LandingFooter />
    </>
  );
}
