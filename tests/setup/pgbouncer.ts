import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../lib/platform/db/embedded";

/*
 * Debian's PgBouncer (1.18, the version whose transaction mode refuses named prepared statements) in
 * front of a test database, on a free loopback port, in transaction mode with the settings an operator
 * would use. `npm test` needs the program; lib/cli/test.ts says how to install it when it is missing.
 */

export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH ?? "/usr/sbin/pgbouncer";

export type RunningPgBouncer = { url: string; stop: () => Promise<void> };

export async function startPgBouncer(databaseUrl: string): Promise<RunningPgBouncer> {
  const target = new URL(databaseUrl);
  const user = decodeURIComponent(target.username);
  const password = decodeURIComponent(target.password);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgbouncer-"));
  fs.chmodSync(dir, 0o755);
  const quoted = (value: string) => `"${value.replaceAll('"', '""')}"`;
  fs.writeFileSync(path.join(dir, "users.txt"), `${quoted(user)} ${quoted(password)}\n`, { mode: 0o644 });
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${target.hostname} port=${target.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = plain",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 1000",
      "default_pool_size = 20",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );

  // PgBouncer refuses to run as root; as root it runs as the user the embedded PostgreSQL runs as.
  const runAs = process.getuid?.() === 0 ? unprivilegedUser() : {};
  const child = spawn(PGBOUNCER_PATH, [path.join(dir, "pgbouncer.ini")], {
    ...runAs,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(url.toString(), () => child.exitCode !== null);
  } catch (error) {
    await stop();
    throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${output.trim()}`);
  }
  return { url: url.toString(), stop };
}

function unprivilegedUser(): { uid: number; gid: number } {
  for (const name of ["postgres", "nobody"]) {
    const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  }
  throw new Error("PgBouncer refuses to run as root and neither a postgres nor a nobody user exists");
}

async function waitUntilServing(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited()) throw new Error("the process exited");
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}
