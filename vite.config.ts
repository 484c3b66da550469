import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { PAGE_SECURITY_HEADERS } from "./worker/http/security-headers.ts";

/**
 * The landing page is prerendered and served as a static asset, without the Worker: its
 * security headers come from the assets' `_headers` file, written from the same list.
 */
function staticSecurityHeaders(): Plugin {
  return {
    name: "static-security-headers",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle() {
      const lines = Object.entries(PAGE_SECURITY_HEADERS).map(([k, v]) => `  ${k}: ${v}`);
      this.emitFile({ type: "asset", fileName: "_headers", source: `/*\n${lines.join("\n")}\n` });
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
  // Static files live with the console (the top level of the repository is fixed).
  publicDir: "app/public",
  resolve: { tsconfigPaths: true },
});
