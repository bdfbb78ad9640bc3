import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * Files named `*.last.test.ts` run after every other file. The default order (by cached duration and size)
 * changes from run to run, and a check of the whole shared database (no signing secret in plain text,
 * tests/integration/webhook-subscriptions/secrets-at-rest.last.test.ts) must see what all the others wrote.
 */
class LastFilesLastSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLast = (file: TestSpecification) => file.moduleId.endsWith(".last.test.ts");
    return [...sorted.filter((file) => !isLast(file)), ...sorted.filter(isLast)];
  }
}

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
    sequence: { sequencer: LastFilesLastSequencer },
  },
});
