import { LegalPage } from "~/components/legal/legal-page";
import { PRIVACY_TEXT } from "~/components/legal/privacy-text";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = () => [
  { title: "Privacy Policy — Atiende" },
  {
    name: "description",
    content:
      "How Atiende collects, uses and protects your data. Política de Privacidad de Atiende.",
  },
];

export default function PrivacyPolicy() {
  return <LegalPage text={PRIVACY_TEXT} />;
}
