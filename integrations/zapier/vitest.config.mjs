import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "../..");

// The Zapier integration's tests: zapier-platform-core's createAppTester against a real instance of the
// app (test/global-setup.ts starts it on the production build). npm test runs them after the build.
export default defineConfig({
  root: import.meta.dirname,
  resolve: {
    alias: {
      "@": root,
      // The global setup uses the app's own key and pipeline helpers outside React Server Components.
      "server-only": path.join(root, "tests/support/empty-module.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.mjs"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One app instance and one account: files run one after another so lists stay predictable.
    fileParallelism: false,
  },
});
