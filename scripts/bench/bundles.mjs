// gzip client JavaScript per route of the build: what a first visit to the route downloads
// (entry, the route chain's modules and everything they import statically, the manifest).
import { readdirSync, readFileSync } from "node:fs";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

const CONSOLE_LAYOUT = "routes/console-layout";

/** @param {string} clientDir */
export function bundleReport(clientDir) {
  const assets = `${clientDir}/assets`;
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  /** @type {{ window: any }} */
  const sandbox = { window: {} };
  vm.runInNewContext(readFileSync(`${assets}/${manifestFile}`, "utf8"), sandbox);
  const manifest = sandbox.window.__reactRouterManifest;

  /** @type {Map<string, number>} */
  const sizes = new Map();
  /** @param {string} file @returns {number} */
  const gz = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(`${clientDir}${file}`)).length);
    return sizes.get(file) ?? 0;
  };
  /**
   * A module and its static imports, followed through the files themselves; with `lazy`,
   * the chunks it loads later with import() too.
   */
  /** @param {string[]} files @returns {Set<string>} */
  const closure = (files, lazy = false) => {
    const seen = new Set();
    const stack = [...files];
    const pattern = lazy
      ? /(?:from|import)\s*\(?\s*["'`](\.\/[^"'`]+\.js)["'`]/g
      : /(?:from|import)\s*["'](\.\/[^"']+\.js)["']/g;
    while (stack.length) {
      const file = /** @type {string} */ (stack.pop());
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(`${clientDir}${file}`, "utf8");
      for (const m of text.matchAll(pattern)) {
        stack.push(`/assets/${String(m[1]).slice(2)}`);
      }
    }
    return seen;
  };
  const chartFiles = new Set(
    readdirSync(assets)
      .filter(
        (f) => f.endsWith(".js") && /_chartjs|chartjs/.test(readFileSync(`${assets}/${f}`, "utf8")),
      )
      .map((f) => `/assets/${f}`),
  );

  /** @param {string} id */
  const chain = (id) => {
    const ids = [];
    for (let r = manifest.routes[id]; r; r = manifest.routes[r.parentId]) ids.unshift(r.id);
    return ids;
  };
  /** @type {Record<string, Set<string>>} */
  const routeFiles = {};
  /** @type {Record<string, Set<string>>} */
  const lazyFiles = {};
  for (const id of Object.keys(manifest.routes)) {
    if (id === "root" || id === CONSOLE_LAYOUT) continue;
    const start = [`/assets/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports];
    for (const r of chain(id))
      start.push(manifest.routes[r].module, ...(manifest.routes[r].imports ?? []));
    routeFiles[id] = closure(start);
    lazyFiles[id] = closure(start, true);
  }
  const all = Object.values(routeFiles);
  const floor = [...(all[0] ?? [])].filter((f) => all.every((s) => s.has(f)));
  const floorBytes = floor.reduce((n, f) => n + gz(f), 0);
  /** @type {Record<string, { path: string, console: boolean, totalKb: number, extraKb: number, lazyKb: number, chart: boolean }>} */
  const routes = {};
  for (const [id, files] of Object.entries(routeFiles)) {
    const total = [...files].reduce((n, f) => n + gz(f), 0);
    routes[id] = {
      path: manifest.routes[id].path ?? (manifest.routes[id].index ? "/" : ""),
      console: chain(id).includes(CONSOLE_LAYOUT),
      totalKb: total / 1024,
      extraKb: (total - floorBytes) / 1024,
      lazyKb:
        [...(lazyFiles[id] ?? [])].filter((f) => !files.has(f)).reduce((n, f) => n + gz(f), 0) /
        1024,
      chart: [...(lazyFiles[id] ?? [])].some((f) => chartFiles.has(f)),
    };
  }
  return {
    floorKb: floorBytes / 1024,
    floorFiles: floor,
    routes,
    chartRoutes: Object.entries(routes)
      .filter(([, r]) => r.chart)
      .map(([id]) => id),
  };
}
