import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";
import { staticHeadersFile } from "./worker/http/security-headers.ts";

const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/** The SHA-256 (base64) of every inline script of an HTML page, as CSP names them. */
function inlineScriptHashes(html: string) {
  const hashes: string[] = [];
  for (const [, attributes = "", code = ""] of html.matchAll(SCRIPT_ELEMENT)) {
    if (/\ssrc=/.test(attributes) || !code) continue;
    hashes.push(createHash("sha256").update(code).digest("base64"));
  }
  return hashes;
}

/**
 * The landing page is prerendered and served as a static asset, without the Worker: its
 * security headers come from the assets' `_headers` file, written from the same list once
 * the pages are prerendered, its inline scripts allowed by hash (docs/decisions/0012, 0019).
 */
function staticSecurityHeaders(): Plugin {
  return {
    name: "static-security-headers",
    buildApp: {
      order: "post",
      async handler(builder) {
        const { root, build } = builder.environments.client!.config;
        const clientDir = resolve(root, build.outDir);
        const pages = (await readdir(clientDir, { recursive: true })).filter((file) =>
          file.endsWith(".html"),
        );
        const hashes = await Promise.all(
          pages.map(async (page) =>
            inlineScriptHashes(await readFile(join(clientDir, page), "utf8")),
          ),
        );
        await writeFile(
          join(clientDir, "_headers"),
          staticHeadersFile([...new Set(hashes.flat())]),
        );
      },
    },
  };
}

// LOCAL_STATE_DIR lets the browser tests run on their own throw-away local D1.
const stateDir = process.env.LOCAL_STATE_DIR;

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      persistState: stateDir ? { path: stateDir } : true,
    }),
    tailwindcss(),
    reactRouter(),
    staticSecurityHeaders(),
  ],
  // VITE_CACHE_DIR: a cache of its own (the first-run test starts from none).
  cacheDir: process.env.VITE_CACHE_DIR,
  // Static files live with the console (the top level of the repository is fixed).
  publicDir: "app/public",
  resolve: { tsconfigPaths: true },
});
