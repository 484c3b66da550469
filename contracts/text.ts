/**
 * Folds case and accents, as people type names: "@marta lópez" names Marta López, and
 * "espana" is España. Shared by the server and the console.
 */
export const foldText = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
