import { LegalPage } from "~/components/legal/legal-page";
import { TERMS_TEXT } from "~/components/legal/terms-text";
import type { Route } from "./+types/terms-of-service";

export const meta: Route.MetaFunction = () => [
  { title: "Terms of Service — Atiende" },
  {
    name: "description",
    content: "The terms for using Atiende. Términos de Servicio de Atiende.",
  },
];

export default function TermsOfService() {
  return <LegalPage text={TERMS_TEXT} />;
}
