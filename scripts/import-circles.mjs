// Fails when the code's imports close a circle, type imports included (issue #49). ESLint's
// `import-x/no-cycle` sees only imports of values; a circle of types still ties every file in it
// to every other, so this walks all of them: worker/, durable-objects/, contracts/ and app/.
// Run by `npm run lint`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOTS = ["worker", "durable-objects", "contracts", "app"];
const SOURCE = /\.tsx?$/;

/** @param {string} dir @returns {string[]} */
function sourcesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourcesUnder(file);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [file] : [];
  });
}

/** The project file an import names, or null for a package (`~/` is app/). */
function resolved(/** @type {string} */ from, /** @type {string} */ specifier) {
  const base = specifier.startsWith("~/")
    ? path.join("app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.join(path.dirname(from), specifier)
      : null;
  if (base === null) return null;
  const candidates = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), base];
  return candidates.find((file) => SOURCE.test(file) && existsSync(file)) ?? null;
}

const files = ROOTS.filter((root) => existsSync(root)).flatMap(sourcesUnder);
/** @type {Map<string, string[]>} */
const imports = new Map(
  files.map((file) => [
    file,
    ts
      .preProcessFile(readFileSync(file, "utf8"), true, true)
      .importedFiles.map(({ fileName }) => resolved(file, fileName))
      .filter((target) => target !== null),
  ]),
);

// Tarjan's strongly connected components: each of more than one file is a circle.
let counter = 0;
/** @type {Map<string, number>} */ const index = new Map();
/** @type {Map<string, number>} */ const low = new Map();
/** @type {string[]} */ const stack = [];
const onStack = new Set();
/** @type {string[][]} */ const circles = [];
/** @param {string} file */
function visit(file) {
  index.set(file, counter);
  low.set(file, counter);
  counter += 1;
  stack.push(file);
  onStack.add(file);
  for (const target of imports.get(file) ?? []) {
    if (!index.has(target)) {
      visit(target);
      low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
    } else if (onStack.has(target)) {
      low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
  }
  if (low.get(file) !== index.get(file)) return;
  /** @type {string[]} */ const component = [];
  let member;
  do {
    member = /** @type {string} */ (stack.pop());
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1) circles.push(component.sort());
}
for (const file of files) if (!index.has(file)) visit(file);

if (circles.length > 0) {
  for (const circle of circles) {
    const inCircle = new Set(circle);
    console.error(`Import circle of ${circle.length} files:`);
    for (const file of circle) {
      const ties = (imports.get(file) ?? []).filter((target) => inCircle.has(target));
      console.error(`  ${file} -> ${ties.join(", ")}`);
    }
  }
  process.exit(1);
}
console.log(`No import circle in ${files.length} files (types included).`);
