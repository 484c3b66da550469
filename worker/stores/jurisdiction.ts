/**
 * Whether an organization's country is in the European Economic Area, whose organizations get
 * their store in Cloudflare's `eu` jurisdiction. The onboarding asks the country as free text,
 * in Spanish: its name (with or without accents) or its ISO code are recognised.
 */
import { foldText } from "../../contracts/text";

const EEA = new Map<string, string[]>([
  ["AT", ["austria"]],
  ["BE", ["belgica"]],
  ["BG", ["bulgaria"]],
  ["HR", ["croacia"]],
  ["CY", ["chipre"]],
  ["CZ", ["chequia", "republica checa"]],
  ["DK", ["dinamarca"]],
  ["EE", ["estonia"]],
  ["FI", ["finlandia"]],
  ["FR", ["francia"]],
  ["DE", ["alemania"]],
  ["GR", ["grecia"]],
  ["HU", ["hungria"]],
  ["IE", ["irlanda"]],
  ["IT", ["italia"]],
  ["LV", ["letonia"]],
  ["LT", ["lituania"]],
  ["LU", ["luxemburgo"]],
  ["MT", ["malta"]],
  ["NL", ["paises bajos", "holanda"]],
  ["PL", ["polonia"]],
  ["PT", ["portugal"]],
  ["RO", ["rumania"]],
  ["SK", ["eslovaquia"]],
  ["SI", ["eslovenia"]],
  ["ES", ["espana"]],
  ["SE", ["suecia"]],
  ["IS", ["islandia"]],
  ["LI", ["liechtenstein"]],
  ["NO", ["noruega"]],
]);

const NAMES = new Set([...EEA.values()].flat());

export function isEeaCountry(country: string) {
  const trimmed = country.trim();
  return EEA.has(trimmed.toUpperCase()) || NAMES.has(foldText(trimmed));
}
