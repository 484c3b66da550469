import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// Schemas are written with zod/mini, which the console's bundles shed what they do not use of
// (decision 0155); classic zod's methods bring all of it to every form.
const CLASSIC_ZOD = [
  { name: "zod", message: 'Import { z } from "zod/mini" (decision 0155).' },
  { name: "zod/v4", message: 'Import { z } from "zod/mini" (decision 0155).' },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      "build",
      ".react-router",
      ".wrangler",
      "worker-configuration.d.ts",
      "test-results",
      "playwright-report",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-imports": ["error", { paths: CLASSIC_ZOD }],
    },
  },
  {
    // The folders say where code runs (decision 0158): the edge reaches the store's code only
    // through the interface of its calls, so worker/ imports nothing of durable-objects/ but
    // types. Two files are the seams: the Worker's entry exports the store's class, and the edge
    // reads the organization routes' marks from the store's route table.
    files: ["worker/**/*.ts"],
    ignores: ["worker/index.ts", "worker/stores/organization-route-table.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: CLASSIC_ZOD,
          patterns: [
            {
              group: ["**/durable-objects/**"],
              allowTypeImports: true,
              message:
                "The edge runs none of the store's code: reach it through its calls (decision 0158).",
            },
          ],
        },
      ],
    },
  },
  {
    // What the console, the edge and the store share depends on none of them.
    files: ["contracts/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: CLASSIC_ZOD,
          patterns: [
            {
              group: ["**/worker/**", "**/durable-objects/**", "**/app/**", "~/*"],
              message: "contracts/ imports only contracts/ and packages (decision 0158).",
            },
          ],
        },
      ],
    },
  },
  {
    // No import circle in the code that runs (decision 0086): type-only imports run nothing and
    // are not counted.
    files: ["worker/**/*.ts", "durable-objects/**/*.ts", "contracts/**/*.ts", "app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      // The files an import leads to are read with TypeScript's parser too.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [
        createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".mjs"] }),
      ],
    },
    rules: { "import-x/no-cycle": "error" },
  },
  {
    // The tracking snippet runs in browsers of the businesses' own pages.
    files: ["app/public/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: {
        document: "readonly",
        window: "readonly",
        location: "readonly",
        navigator: "readonly",
        localStorage: "readonly",
        fetch: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
      },
    },
  },
  {
    // Tests read JSON answers field by field.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["scripts/**/*.mjs", "tests/**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        fetch: "readonly",
        Buffer: "readonly",
        Response: "readonly",
        TextEncoder: "readonly",
        crypto: "readonly",
      },
    },
  },
);
