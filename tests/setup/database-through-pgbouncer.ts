import type { TestProject } from "vitest/node";
import { createTestDatabase } from "./database";
import { startPgBouncer } from "./pgbouncer";

/*
 * The second run of the webhook, public API and outbound tests (vitest.pgbouncer.config.ts): the app's
 * DATABASE_URL goes through PgBouncer in transaction mode, as an operator deploys it when connections
 * run out, and DATABASE_DIRECT_URL reaches PostgreSQL for migrations and the worker (docs/scaling.md).
 */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase();
  try {
    const bouncer = await startPgBouncer(database.databaseUrl);
    project.provide("databaseUrl", bouncer.url);
    project.provide("directDatabaseUrl", database.databaseUrl);
    return async () => {
      await bouncer.stop();
      await database.teardown();
    };
  } catch (error) {
    await database.teardown();
    throw error;
  }
}
