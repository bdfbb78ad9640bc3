import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      ".data/**",
      "lib/platform/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "integrations/zapier/node_modules/**",
      "integrations/zapier/build/**",
    ],
  },
  {
    // The Zapier integration is a CommonJS package of its own, as the Zapier CLI builds and runs it.
    files: ["integrations/zapier/**/*.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];

export default config;
