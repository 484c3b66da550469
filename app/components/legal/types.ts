/** The languages the legal pages are offered in; English is the default. */
export type LegalLanguage = "en" | "es";

export const LEGAL_LANGUAGES: readonly { value: LegalLanguage; label: string }[] = [
  { value: "en", label: "English" },
  { value: "es", label: "Español" },
];

/** One piece of a section's body. Plain data: the layout turns it into elements. */
export type LegalBlock =
  | { type: "paragraph"; text: string }
  | { type: "list"; items: readonly string[] }
  /** A paragraph that ends with an e-mail address rendered as a mailto link. */
  | { type: "email"; text: string; address: string }
  /** A numbered sub-part (2.1, 2.2, …) with its own heading. */
  | { type: "subsection"; heading: string; blocks: readonly LegalBlock[] };

export interface LegalSection {
  heading: string;
  blocks: readonly LegalBlock[];
}

export interface LegalDocument {
  title: string;
  sections: readonly LegalSection[];
  /** A closing line shown after the last section. */
  closing?: string;
}

export type LegalText = Record<LegalLanguage, LegalDocument>;
