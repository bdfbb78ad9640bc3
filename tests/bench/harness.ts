import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { sourceFingerprint } from "@/lib/cli/build-fingerprint";
import { bin, run } from "@/lib/cli/processes";
import { db } from "@/lib/platform/db/client";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/platform/db/embedded";
import { applyMigrations } from "@/lib/platform/db/migrate";
import { startPgBouncer } from "../setup/pgbouncer";

/*
 * What every benchmark shares: a production build in its own dist dir (rebuilt only when the source
 * changed, so a run never touches .next), a throw-away embedded PostgreSQL with the migrations applied,
 * and the production server (server.mjs) or plain `next start` of the same build on a free port.
 */

/** The benchmarks' build, kept apart from .next; each measured run's length; the load's connections. */
export const DIST_DIR = ".next-bench";
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
export const CONNECTIONS = 50;

export async function buildIfNeeded(distDir: string): Promise<void> {
  const stamp = path.join(distDir, "source-fingerprint");
  const fingerprint = sourceFingerprint();
  if (
    fs.existsSync(path.join(distDir, "BUILD_ID")) &&
    fs.existsSync(stamp) &&
    fs.readFileSync(stamp, "utf8") === fingerprint
  ) {
    console.log(`▸ Production build in ${distDir} is current`);
    return;
  }
  console.log(`▸ Building into ${distDir}…`);
  // next build rewrites tsconfig.json and next-env.d.ts for its dist dir; keep the checked-in ones.
  const kept = ["tsconfig.json", "next-env.d.ts"]
    .filter((file) => fs.existsSync(file))
    .map((file) => [file, fs.readFileSync(file, "utf8")] as const);
  try {
    const code = await run(bin("next"), ["build"], { ...process.env, NEXT_DIST_DIR: distDir, NODE_OPTIONS: "" });
    if (code !== 0) throw new Error("next build failed");
  } finally {
    for (const [file, text] of kept) if (fs.readFileSync(file, "utf8") !== text) fs.writeFileSync(file, text);
  }
  fs.writeFileSync(stamp, fingerprint);
}

/**
 * A benchmark's bare node:http server (tests/bench/*server.ts) on `port`, run with tsx as the app's code.
 * It always talks to PostgreSQL directly (its named prepared statements would not pass PgBouncer 1.18), so
 * with BENCH_PGBOUNCER=on the ratio shows what the pooler costs the app.
 */
export function startReferenceServer(script: string, port: number, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(
    process.execPath,
    [...cpuProfileArgs(), "--conditions=react-server", "--import", "tsx", script, String(port)],
    {
      env: { ...env, DATABASE_URL: env.DATABASE_DIRECT_URL || env.DATABASE_URL },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

export type BenchDatabase = EmbeddedDatabase & { dispose: () => Promise<void> };

export async function startBenchDatabase(label: string): Promise<BenchDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${label}-pg-`));
  const database = await startEmbeddedPostgres({ dir, port: await freePort(), persistent: false });
  await applyMigrations(database.url);
  return {
    ...database,
    dispose: async () => {
      if (process.env.BENCH_INDEX_STATS === "on") await printIndexWalks(database.url).catch(() => {});
      await database.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * BENCH_INDEX_STATS=on: the indexes the run read most, with the entries read per scan. A lookup by key
 * reads about one; dozens mean a plan walking a range where it should look up (docs/scaling.md, "Generic
 * plans on an empty table").
 */
async function printIndexWalks(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT relname AS table, indexrelname AS index, idx_scan AS scans,
        idx_tup_read AS entries_read, round(idx_tup_read::numeric / idx_scan, 1) AS per_scan
      FROM pg_stat_user_indexes WHERE idx_scan > 0 ORDER BY idx_tup_read DESC LIMIT 15`);
    console.log("\nIndexes read most (BENCH_INDEX_STATS=on):");
    console.table(rows);
  } finally {
    await client.end();
  }
}

let metricsNoted = false;

/**
 * The servers' environment. With METRICS_TOKEN set, or BENCH_METRICS=on (a token is made up), the servers
 * record their metrics while measured: run a benchmark both ways to see what metrics cost the hot paths
 * (docs/operations.md, "Overhead").
 */
export function benchEnv(databaseUrl: string, distDir: string): NodeJS.ProcessEnv {
  const metricsToken =
    process.env.METRICS_TOKEN || (process.env.BENCH_METRICS === "on" ? crypto.randomBytes(16).toString("hex") : "");
  if (!metricsNoted) {
    metricsNoted = true;
    console.log(
      metricsToken ? "▸ Metrics on: the servers record /metrics" : "▸ Metrics off (BENCH_METRICS=on turns them on)",
    );
  }
  return {
    ...process.env,
    METRICS_TOKEN: metricsToken,
    NODE_ENV: "production",
    NODE_OPTIONS: "",
    DATABASE_URL: databaseUrl,
    NEXT_DIST_DIR: distDir,
    APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? crypto.randomBytes(32).toString("base64"),
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? crypto.randomBytes(32).toString("base64url"),
    // Loopback servers over plain http, on purpose.
    ALLOW_INSECURE_HTTP: "1",
    // The benchmarks measure throughput with one key, far beyond the default 600 requests a minute; the
    // limit is still counted on every request.
    PUBLIC_API_RATE_LIMIT_PER_MINUTE: "1000000000",
  };
}

/** BENCH_CPU_PROF=<dir>: node's flags for a process to write a V8 CPU profile there when it exits. */
export function cpuProfileArgs(): string[] {
  return process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
}

/** The production server exactly as `npm start` runs it (server.mjs: Next.js plus the API hot paths). */
export function startNext(port: number, env: NodeJS.ProcessEnv): ChildProcess {
  const url = `http://127.0.0.1:${port}`;
  return spawn(process.execPath, [...cpuProfileArgs(), "server.mjs"], {
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", NEXTAUTH_URL: url, APP_BASE_URL: url },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Plain `next start` of the same build: what the custom server's fast path is measured against. */
export function startPlainNext(port: number, env: NodeJS.ProcessEnv): ChildProcess {
  const url = `http://127.0.0.1:${port}`;
  return spawn(bin("next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...env, NEXTAUTH_URL: url, APP_BASE_URL: url },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** A server a load benchmark measures: its name in the report, and how it starts on a port. */
export type BenchServer = { label: string; start: (port: number) => ChildProcess };

/**
 * The servers a load benchmark compares: ours (server.mjs), plain `next start` of the same build (what the
 * fast path gains), and the benchmark's bare node:http + pg server doing the same work (`referenceScript`).
 */
export function comparedServers(env: NodeJS.ProcessEnv, referenceScript: string) {
  return {
    ours: { label: "App server (ours)", start: (port: number) => startNext(port, env) },
    plainNext: { label: "Plain next start", start: (port: number) => startPlainNext(port, env) },
    reference: {
      label: "Reference node:http + pg",
      start: (port: number) => startReferenceServer(referenceScript, port, env),
    },
  } satisfies Record<string, BenchServer>;
}

/**
 * Polls `ready` every 200 ms, for a minute at most, until it is true; `ready` is false while the server does
 * not listen yet, and throws on an answer that waiting will not change. A server that exits fails at once.
 */
async function waitUntilReady(name: string, child: ChildProcess, ready: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not start`);
}

export async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  await waitUntilReady(`server at ${baseUrl}`, child, () =>
    fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    ),
  );
}

export type StartedServer = { label: string; port: number; baseUrl: string; child: ChildProcess };

/** `server` on a free port, once `ready(baseUrl)` (see waitUntilReady); stopped again if it never is. */
export async function startServer(
  server: BenchServer,
  ready: (baseUrl: string) => Promise<boolean>,
): Promise<StartedServer> {
  const port = await freePort();
  const started = { label: server.label, port, baseUrl: `http://127.0.0.1:${port}`, child: server.start(port) };
  try {
    await waitUntilReady(server.label, started.child, () => ready(started.baseUrl));
    return started;
  } catch (error) {
    await stopProcess(started.child);
    throw error;
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * A benchmark's run: the build, a throw-away database and the servers' environment, then `measure`,
 * whose number is the exit code; the database is removed whatever happens.
 */
export function runBench(
  label: string,
  measure: (database: BenchDatabase, env: NodeJS.ProcessEnv) => Promise<number>,
): void {
  runMain(async () => {
    await buildIfNeeded(DIST_DIR);
    const database = await startBenchDatabase(label);
    const pooler = process.env.BENCH_PGBOUNCER === "on" ? await startPgBouncer(database.url) : null;
    try {
      if (!pooler) return await measure(database, benchEnv(database.url, DIST_DIR));
      console.log("▸ Through PgBouncer (transaction mode): the app servers' DATABASE_URL is the pooler");
      const env = {
        ...benchEnv(pooler.url, DIST_DIR),
        DATABASE_POOLER: "pgbouncer",
        DATABASE_DIRECT_URL: database.url,
      };
      return await measure(database, env);
    } finally {
      await pooler?.stop();
      await database.dispose();
    }
  });
}

/**
 * A benchmark of the app's code in this process: a throw-away database as its DATABASE_URL and a client of the
 * benchmark's own on it, then `measure`, whose number is the exit code; all is closed and removed after.
 */
export function runInProcess(
  label: string,
  measure: (client: pg.Client, database: BenchDatabase) => Promise<number>,
): void {
  runMain(async () => {
    const database = await startBenchDatabase(label);
    process.env.DATABASE_URL = database.url;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return await measure(client, database);
    } finally {
      await client.end();
      await db.pool.end();
      await database.dispose();
    }
  });
}

export type LoadSummary = {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
};

export type LoadRequest = NonNullable<Parameters<typeof autocannon>[0]["requests"]>[number];

/**
 * autocannon on `url` with CONNECTIONS connections: a warm-up of `warmupSeconds` (what a just-started server
 * runs slower), then the measured run of SECONDS.
 */
export async function measureLoad(
  label: string,
  url: string,
  requests: LoadRequest[],
  warmupSeconds: number,
): Promise<LoadSummary> {
  const load = async (seconds: number) =>
    summarise(await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests }));
  await load(warmupSeconds);
  console.log(`▸ ${label}: ${SECONDS} s, ${CONNECTIONS} connections…`);
  return load(SECONDS);
}

/** The figures every load benchmark reports, from an autocannon result. */
export function summarise(result: {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}): LoadSummary {
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/** Prints the ratio and each target as met or missed; the exit code is 0 only when all are met. */
export function checkTargets(
  ours: LoadSummary,
  reference: LoadSummary,
  targets: { requestsPerSecond: number; p99: number; ratio: number },
  failedRequests: number,
): number {
  const ratio = ours.requestsPerSecond / reference.requestsPerSecond;
  console.log(`Ratio ours/reference: ${ratio.toFixed(2)}`);
  const checks = [
    [`≥ ${targets.requestsPerSecond} req/s`, ours.requestsPerSecond >= targets.requestsPerSecond],
    [`p99 < ${targets.p99} ms`, ours.p99 < targets.p99],
    [`ratio ≥ ${targets.ratio}`, ratio >= targets.ratio],
    ["zero errors and non-2xx", failedRequests === 0],
  ] as const;
  console.log(`Targets: ${checks.map(([name, ok]) => `${ok ? "✔" : "✖"} ${name}`).join(", ")}`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}
