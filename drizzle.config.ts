import { defineConfig } from "drizzle-kit";

// Generates SQL into migrations/; wrangler applies it (locally, in tests and on deploy).
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/global-schema.ts",
  out: "./migrations",
});
