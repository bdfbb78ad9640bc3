import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": import.meta.dirname,
      // The marker package throws outside React Server Components; tests run server code directly.
      "server-only": path.join(import.meta.dirname, "tests/support/empty-module.ts"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/setup/database.ts"],
    setupFiles: ["tests/setup/environment.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one database; files run one after another so counts stay exact.
    fileParallelism: false,
  },
});
