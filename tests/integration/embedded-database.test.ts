import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  EmbeddedDatabaseError,
  freePort,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from "@/lib/platform/db/embedded";
import { packagedBinaries } from "@/lib/platform/db/embedded-placement";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temporary folder (anyone may enter it unless `mode` says otherwise), removed after the test. */
function tempDir(prefix = "embedded-test-", mode = 0o755): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, mode);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(options: Parameters<typeof startEmbeddedPostgres>[0]): Promise<EmbeddedDatabase> {
  const database = await startEmbeddedPostgres(options);
  cleanups.push(async () => {
    await database.stop();
    fs.rmSync(database.dataDir, { recursive: true, force: true });
  });
  return database;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("embedded PostgreSQL", () => {
  it("keeps its data across a restart of a persistent cluster", async () => {
    const dir = tempDir();
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dir, port, persistent: true });
    await query(first.url, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
    await first.stop();

    const second = await started({ dir, port, persistent: true });
    expect(await query(second.url, "SELECT value FROM kept")).toEqual([{ value: "still here" }]);
  });

  it("starts from a checkout inside a 0700 folder and keeps its data there across a restart", async () => {
    // As root PostgreSQL runs as the postgres user, who cannot enter a 0700 folder of root's (like /root).
    const home = tempDir("embedded-home-", 0o700);
    const reachableRoot = tempDir("embedded-reachable-");
    const dir = path.join(home, "app", ".data", "postgres");
    const first = await startEmbeddedPostgres({ dir, persistent: true, reachableRoot });
    await query(first.url, "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
    await first.stop();

    const second = await started({ dir, persistent: true, reachableRoot });
    expect(second.dataDir).toBe(first.dataDir);
    expect(await query(second.url, "SELECT value FROM kept")).toEqual([{ value: "still here" }]);
    if (process.getuid?.() === 0) expect(second.notes.join("\n")).toContain(second.dataDir);
  });

  it("runs PostgreSQL programs kept inside a 0700 folder", async () => {
    const home = tempDir("embedded-home-", 0o700);
    const binaries = path.join(home, "node_modules", "native");
    fs.cpSync(packagedBinaries(), binaries, { recursive: true, verbatimSymlinks: true });
    const database = await started({
      dir: path.join(tempDir(), "pg"),
      persistent: false,
      binaries,
      reachableRoot: tempDir("embedded-reachable-"),
    });
    expect(await query(database.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("records a free port on first start and uses it again on the next", async () => {
    const checkout = tempDir();
    const portFile = path.join(checkout, "embedded-postgres.json");
    const first = await startEmbeddedPostgres({ dir: path.join(checkout, "postgres"), portFile, persistent: true });
    await first.stop();
    expect(JSON.parse(fs.readFileSync(portFile, "utf8"))).toEqual({ port: first.port });

    const second = await started({ dir: path.join(checkout, "postgres"), portFile, persistent: true });
    expect(second.port).toBe(first.port);
    expect(second.notes).toEqual([]);
  });

  it("moves to another free port, records it and says so when the recorded one is taken", async () => {
    const checkout = tempDir();
    const portFile = path.join(checkout, "embedded-postgres.json");
    const taken = await freePort();
    fs.writeFileSync(portFile, JSON.stringify({ port: taken }));
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(taken, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    const database = await started({ dir: path.join(checkout, "postgres"), portFile, persistent: false });
    expect(database.port).not.toBe(taken);
    expect(JSON.parse(fs.readFileSync(portFile, "utf8"))).toEqual({ port: database.port });
    expect(database.notes.join("\n")).toContain(`port ${taken} is taken`);
  });

  it("runs two checkouts side by side, each on its own recorded port", async () => {
    const [a, b] = [tempDir(), tempDir()];
    const [first, second] = await Promise.all(
      [a, b].map((checkout) =>
        started({
          dir: path.join(checkout, "postgres"),
          portFile: path.join(checkout, "port.json"),
          persistent: false,
        }),
      ),
    );
    expect(first.port).not.toBe(second.port);
    expect(await query(first.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(await query(second.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("explains what to do when its port is taken", async () => {
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const attempt = startEmbeddedPostgres({ dir: tempDir(), port, persistent: false });
      await expect(attempt).rejects.toBeInstanceOf(EmbeddedDatabaseError);
      await expect(attempt).rejects.toThrow(/Port \d+ is already in use.*EMBEDDED_DB_PORT.*DATABASE_URL/s);
    } finally {
      blocker.close();
    }
  });

  it("explains that the data folder is in use by another running instance", async () => {
    const dir = tempDir();
    await started({ dir, port: await freePort(), persistent: true });
    const attempt = startEmbeddedPostgres({ dir, port: await freePort(), persistent: true });
    await expect(attempt).rejects.toThrow(/already in use by another running instance/);
  });

  it("explains a data folder that holds other files instead of a database", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a database");
    const attempt = startEmbeddedPostgres({ dir, persistent: true });
    await expect(attempt).rejects.toBeInstanceOf(EmbeddedDatabaseError);
    await expect(attempt).rejects.toThrow(/holds files but no PostgreSQL database.*DATABASE_URL/s);
  });

  it("explains missing PostgreSQL programs and how to reinstall them", async () => {
    const binaries = tempDir();
    const attempt = startEmbeddedPostgres({ dir: path.join(tempDir(), "pg"), persistent: false, binaries });
    await expect(attempt).rejects.toBeInstanceOf(EmbeddedDatabaseError);
    await expect(attempt).rejects.toThrow(/bin\/initdb is missing.*npm install/s);
  });
});
