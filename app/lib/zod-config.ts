import { z } from "zod/mini";

// Zod probes `new Function` once to compile faster parsers; under the page's
// Content-Security-Policy (no 'unsafe-eval') the probe fails and the browser reports a
// violation. Imported first by app/root.tsx, before any schema is created.
z.config({ jitless: true });
