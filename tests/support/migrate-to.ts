import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { Logger, runMigrations as runQueueMigrations } from "graphile-worker";
import { MIGRATIONS_DIR } from "@/lib/platform/db/migrate";

/*
 * A database of its own on the test server, migrated up to (not including) one migration, for tests that
 * fill a database as it was before a migration, then run that migration on it (nothing lost, rows where
 * they belong). The migrations' scripts run as the app runs them: each whole, in one transaction.
 */

export type DatabaseBefore = {
  client: pg.Client;
  /** Runs the migration the database stopped before. */
  migrate: () => Promise<void>;
  drop: () => Promise<void>;
};

const serverUrl = () => process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL!;

function script(name: string): string {
  return fs.readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
}

export async function databaseBefore(migration: string): Promise<DatabaseBefore> {
  const all = fs
    .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  if (!all.includes(migration)) throw new Error(`no migration ${migration}`);
  const name = `before_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  const drop = async () => {
    await client.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  };
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await runQueueMigrations({ connectionString: url.toString(), logger: new Logger(() => () => {}) });
    await client.connect();
    for (const earlier of all.filter((entry) => entry < migration)) await client.query(script(earlier));
  } catch (error) {
    await drop();
    throw error;
  }
  return { client, migrate: async () => void (await client.query(script(migration))), drop };
}
