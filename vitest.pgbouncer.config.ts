import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/*
 * The webhook, public API and outbound integration tests a second time, with DATABASE_URL through PgBouncer
 * in transaction mode (tests/setup/database-through-pgbouncer.ts). `npm test` runs it after the full run.
 */
// Spread, not mergeConfig: mergeConfig would append these lists to the base run's instead of replacing them.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      "tests/integration/events-webhook/**/*.test.ts",
      "tests/integration/public-api*.test.ts",
      "tests/integration/leads/**/*.test.ts",
      "tests/integration/conversations/api-*.test.ts",
      "tests/integration/webhook-subscriptions/*-api.test.ts",
      "tests/integration/webhook-subscriptions/subscribe-replay.test.ts",
      "tests/integration/webhook-subscriptions/bad-input.test.ts",
      "tests/integration/outbound/**/*.test.ts",
    ],
    globalSetup: ["tests/setup/database-through-pgbouncer.ts"],
  },
});
