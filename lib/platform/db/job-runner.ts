import "server-only";
import { Logger, run, type Runner, type RunnerOptions } from "graphile-worker";
import pg from "pg";
import { directDatabaseUrl } from "./pooler";

/*
 * A graphile-worker runner on a pool of its own, kept running: a runner that dies with the database is
 * started again, every `restartDelayMs`, until one starts. graphile-worker holds a session of its own
 * (LISTEN), so the pool connects directly, never through a transaction pooler. Only errors and warnings
 * are logged, each line prefixed with `name`.
 */

export type JobRunner = { stop: () => Promise<void> };

export type JobRunnerOptions = {
  name: string;
  connectionString?: string;
  log?: (line: string) => void;
  poolSize: number;
  restartDelayMs: number;
  /** Work done once on the pool before the first runner starts; a failure fails the start. */
  beforeStart?: (pool: pg.Pool) => Promise<unknown>;
  /** The runner's tasks, cron items and pace; its tasks may use the pool. */
  runnerOptions: (pool: pg.Pool) => Omit<RunnerOptions, "pgPool" | "logger" | "noHandleSignals">;
};

export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const { name } = options;
  const connectionString = options.connectionString ?? directDatabaseUrl();
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const log = options.log ?? ((line: string) => console.warn(line));
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  pool.on("error", () => {});
  await options.beforeStart?.(pool);
  const logger = new Logger(() => (level, message) => {
    if (level === "error" || level === "warning") log(`${name}: ${message}`);
  });
  let runner: Runner | null = null;
  let stopped = false;
  const launch = async () => {
    runner = await run({ ...options.runnerOptions(pool), pgPool: pool, noHandleSignals: true, logger });
    runner.promise.catch(() => void relaunch());
  };
  const relaunch = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, options.restartDelayMs));
      if (stopped) return;
      try {
        await launch();
        return;
      } catch (error) {
        log(`${name}: restart failed (retrying): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await launch();
  return {
    stop: async () => {
      stopped = true;
      await runner?.stop().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
