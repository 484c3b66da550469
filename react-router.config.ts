import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The landing page is the same for everyone: built once, served as a static file.
  prerender: ["/"],
  future: {
    // Vite scans every route module for the console's dependencies before the first page:
    // without it a cold `npm run dev` found them one screen at a time and reloaded the page
    // each time (tests/first-run).
    unstable_optimizeDeps: true,
  },
} satisfies Config;
