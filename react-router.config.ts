import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The landing page is the same for everyone: built once, served as a static file.
  prerender: ["/"],
} satisfies Config;
