import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { EmbeddedDatabaseError, freePort, startEmbeddedPostgres } from "../../lib/platform/db/embedded";
import { applyMigrations } from "../../lib/platform/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** Set when databaseUrl goes through PgBouncer (./database-through-pgbouncer.ts): PostgreSQL itself. */
    directDatabaseUrl?: string;
    /** The embedded server's data folder (unset with TEST_DATABASE_URL), for tests that copy it. */
    embeddedDataDir?: string;
  }
}

/*
 * A fresh database per run: a new database on TEST_DATABASE_URL's server when set, otherwise an
 * embedded PostgreSQL on a free port in a temporary folder. Both are removed afterwards.
 */
export default async function setup(project: TestProject) {
  const { databaseUrl, embeddedDataDir, teardown } = await createTestDatabase();
  project.provide("databaseUrl", databaseUrl);
  if (embeddedDataDir) project.provide("embeddedDataDir", embeddedDataDir);
  return teardown;
}

/** A migrated, empty database and the function that removes it. */
export async function createTestDatabase(): Promise<{
  databaseUrl: string;
  embeddedDataDir?: string;
  teardown: () => Promise<void>;
}> {
  let databaseUrl: string;
  let embeddedDataDir: string | undefined;
  let teardown: () => Promise<void>;
  if (process.env.TEST_DATABASE_URL) {
    const name = `test_${Date.now()}_${crypto.randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    teardown = async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitest-pg-"));
    const database = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false }).catch(
      (error: unknown) => {
        fs.rmSync(dir, { recursive: true, force: true });
        // The message says what to do; a stack trace into the setup would only bury it.
        if (error instanceof EmbeddedDatabaseError) error.stack = `EmbeddedDatabaseError: ${error.message}`;
        throw error;
      },
    );
    databaseUrl = database.url;
    embeddedDataDir = database.dataDir;
    teardown = async () => {
      await database.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  await applyMigrations(databaseUrl);
  await createPastPartitions(databaseUrl);
  return { databaseUrl, embeddedDataDir, teardown };
}

/*
 * The migrations create day partitions of the logs from yesterday on, as a fresh install needs; tests also
 * write rows dated up to a few weeks back (date ranges, retention), so every partitioned table gets its days
 * from 40 days ago to a week ahead.
 */
async function createPastPartitions(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `SELECT create_daily_partitions(c.oid::regclass, current_date - 40, current_date + 7)
       FROM pg_class c WHERE c.relkind = 'p' AND c.relnamespace = 'public'::regnamespace`,
    );
  } finally {
    await client.end();
  }
}
