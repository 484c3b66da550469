import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

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
  ],
  // Static files live with the console (the top level of the repository is fixed).
  publicDir: "app/public",
  resolve: { tsconfigPaths: true },
});
