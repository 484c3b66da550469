/**
 * An organization's time zone, guessed from the country it gave when it was created (a free
 * text) and editable in its settings: its broadcasts' quiet hours are in it.
 */
import { DEFAULT_TIME_ZONE } from "../../contracts/organizations";

/** Countries as people write them (lower case, no accents), and their main time zone. */
const TIME_ZONE_OF_COUNTRY: Record<string, string> = {
  espana: "Europe/Madrid",
  spain: "Europe/Madrid",
  mexico: "America/Mexico_City",
  colombia: "America/Bogota",
  argentina: "America/Argentina/Buenos_Aires",
  chile: "America/Santiago",
  peru: "America/Lima",
  ecuador: "America/Guayaquil",
  venezuela: "America/Caracas",
  uruguay: "America/Montevideo",
  paraguay: "America/Asuncion",
  bolivia: "America/La_Paz",
  guatemala: "America/Guatemala",
  "costa rica": "America/Costa_Rica",
  panama: "America/Panama",
  "republica dominicana": "America/Santo_Domingo",
  "el salvador": "America/El_Salvador",
  honduras: "America/Tegucigalpa",
  nicaragua: "America/Managua",
  "puerto rico": "America/Puerto_Rico",
  "estados unidos": "America/New_York",
  brasil: "America/Sao_Paulo",
  brazil: "America/Sao_Paulo",
  portugal: "Europe/Lisbon",
  "reino unido": "Europe/London",
  francia: "Europe/Paris",
  alemania: "Europe/Berlin",
  italia: "Europe/Rome",
};

/** The time zone a country's name suggests, else the product's default. */
export function timeZoneOfCountry(country: string) {
  const name = country
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
  return TIME_ZONE_OF_COUNTRY[name] ?? DEFAULT_TIME_ZONE;
}
