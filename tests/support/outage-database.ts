import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/platform/db/embedded";
import { applyMigrations } from "@/lib/platform/db/migrate";

/**
 * A PostgreSQL of the calling describe block's own, kept on disk in a temporary folder, that a test stops and
 * starts again on the same port to play an outage: clients keep its URL across the restart. It is stopped and
 * its folder removed after the block's other afterAll hooks (they run in reverse order of registration), so
 * call this before registering hooks that still need it.
 */
export function outageDatabase(folderPrefix: string): {
  /** Starts it on a free port with the migrations applied. */
  start: () => Promise<EmbeddedDatabase>;
  stop: () => Promise<void>;
  /** Starts it again, data kept, on the port of `start`. */
  restart: () => Promise<EmbeddedDatabase>;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), folderPrefix));
  let port = 0;
  let database: EmbeddedDatabase | null = null;
  afterAll(async () => {
    await database?.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const started = async () => {
    database = await startEmbeddedPostgres({ dir, port, persistent: true });
    return database;
  };
  return {
    start: async () => {
      port = await freePort();
      const fresh = await started();
      await applyMigrations(fresh.url);
      return fresh;
    },
    stop: async () => {
      await database?.stop();
    },
    restart: started,
  };
}
