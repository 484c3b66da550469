import { format } from "date-fns";
import { enUS, es } from "date-fns/locale";
import { useId, useState } from "react";
import { useHydrated } from "~/lib/use-hydrated";
import { useNavigate } from "react-router";
import {
  LEGAL_LANGUAGES,
  type LegalBlock,
  type LegalLanguage,
  type LegalSection,
  type LegalText,
} from "./types";

const UI = {
  en: { back: "Back", language: "Language", lastUpdated: "Last updated", dateLocale: enUS },
  es: { back: "Volver", language: "Idioma", lastUpdated: "Última actualización", dateLocale: es },
} as const;

/** A legal page: Back button, language dropdown, title, last-updated line, numbered sections. */
export function LegalPage({ text }: { text: LegalText }) {
  const [language, setLanguage] = useState<LegalLanguage>("en");
  const content = text[language];
  const ui = UI[language];

  return (
    <div lang={language} className="min-h-screen bg-slate-50">
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <BackButton label={ui.back} />
          <LanguageSelect label={ui.language} value={language} onChange={setLanguage} />
        </div>
      </header>

      <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
        <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {content.title}
          </h1>
          <LastUpdated language={language} />

          <div className="mt-8 space-y-10">
            {content.sections.map((section, index) => (
              <NumberedSection key={section.heading} number={index + 1} section={section} />
            ))}
          </div>

          {content.closing && (
            <p className="mt-10 border-t border-slate-200 pt-6 font-medium text-slate-900">
              {content.closing}
            </p>
          )}
        </article>
      </main>
    </div>
  );
}

function BackButton({ label }: { label: string }) {
  const navigate = useNavigate();

  function goBack() {
    // A page opened in a fresh tab has no previous entry to return to.
    if (window.history.length > 1) void navigate(-1);
    else void navigate("/");
  }

  return (
    <button
      type="button"
      onClick={goBack}
      className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-100"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className="h-4 w-4 text-slate-500"
      >
        <path
          fillRule="evenodd"
          d="M17 10a.75.75 0 0 1-.75.75H5.612l4.158 3.96a.75.75 0 1 1-1.04 1.08l-5.5-5.25a.75.75 0 0 1 0-1.08l5.5-5.25a.75.75 0 1 1 1.04 1.08L5.612 9.25H16.25A.75.75 0 0 1 17 10Z"
          clipRule="evenodd"
        />
      </svg>
      {label}
    </button>
  );
}

interface LanguageSelectProps {
  label: string;
  value: LegalLanguage;
  onChange: (language: LegalLanguage) => void;
}

function LanguageSelect({ label, value, onChange }: LanguageSelectProps) {
  const id = useId();

  function handleChange(event: React.ChangeEvent<HTMLSelectElement>) {
    const chosen = LEGAL_LANGUAGES.find((option) => option.value === event.target.value);
    if (chosen) onChange(chosen.value);
  }

  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-600">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={handleChange}
        className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
      >
        {LEGAL_LANGUAGES.map((option) => (
          <option key={option.value} value={option.value} lang={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Today's date is only known on the client: rendering it after hydration avoids a mismatch. */
function LastUpdated({ language }: { language: LegalLanguage }) {
  const hydrated = useHydrated();
  const ui = UI[language];
  const today = new Date();

  return (
    <p className="mt-2 min-h-5 text-sm text-slate-500">
      {ui.lastUpdated}:{" "}
      {hydrated && (
        <time dateTime={format(today, "yyyy-MM-dd")}>
          {format(today, "PPP", { locale: ui.dateLocale })}
        </time>
      )}
    </p>
  );
}

function NumberedSection({ number, section }: { number: number; section: LegalSection }) {
  return (
    <section>
      <h2 className="text-xl font-semibold text-slate-900">
        {number}. {section.heading}
      </h2>
      <div className="mt-3 space-y-3 leading-relaxed text-slate-700">
        <Blocks blocks={section.blocks} prefix={String(number)} />
      </div>
    </section>
  );
}

/** Renders a section's body; sub-parts are numbered after their section (2.1, 2.2, …). */
function Blocks({ blocks, prefix }: { blocks: readonly LegalBlock[]; prefix: string }) {
  let subsectionCount = 0;
  return blocks.map((block, index) => {
    if (block.type !== "subsection") return <Block key={index} block={block} />;
    subsectionCount += 1;
    const number = `${prefix}.${subsectionCount}`;
    return (
      <div key={index} className="pt-2">
        <h3 className="font-semibold text-slate-900">
          {number}. {block.heading}
        </h3>
        <div className="mt-2 space-y-3">
          <Blocks blocks={block.blocks} prefix={number} />
        </div>
      </div>
    );
  });
}

function Block({ block }: { block: Exclude<LegalBlock, { type: "subsection" }> }) {
  switch (block.type) {
    case "paragraph":
      return <p>{block.text}</p>;
    case "list":
      return (
        <ul className="list-disc space-y-1.5 pl-6 marker:text-emerald-600">
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      );
    case "email":
      return (
        <p>
          {block.text}{" "}
          <a
            href={`mailto:${block.address}`}
            className="font-medium text-emerald-700 underline underline-offset-2 hover:text-emerald-800"
          >
            {block.address}
          </a>
        </p>
      );
  }
}
