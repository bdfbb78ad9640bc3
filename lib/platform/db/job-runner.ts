import "server-only";
import { Logger, parseCronItems, run, type CronItem, type Runner, type TaskList } from "graphile-worker";
import pg from "pg";
import { directDatabaseUrl } from "./pooler";

/*
 * One graphile-worker runner per process for every domain's jobs, on a pool of its own, kept running: a
 * runner that dies with the database is started again, every `restartDelayMs`, until one starts.
 * graphile-worker holds a session of its own (LISTEN), so the pool connects directly, never through a
 * transaction pooler. Only errors and warnings are logged, each line prefixed with `name`.
 */

export type JobRunner = { stop: () => Promise<void> };

/** What a domain runs on the job queue; its tasks may use the runner's pool. */
export type JobSet = {
  taskList: TaskList;
  cron?: CronItem[];
  /** Work done once on the pool before the runner starts; a failure fails the start. */
  beforeStart?: () => Promise<unknown>;
  /** Work started once the runner runs (not awaited). */
  afterStart?: () => void;
};

export type JobRunnerOptions = {
  name: string;
  connectionString?: string;
  log?: (line: string) => void;
  poolSize: number;
  restartDelayMs: number;
  concurrency: number;
  pollInterval: number;
  jobs: Array<(pool: pg.Pool) => JobSet>;
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
  const sets = options.jobs.map((jobs) => jobs(pool));
  const logger = new Logger(() => (level, message) => {
    if (level === "error" || level === "warning") log(`${name}: ${message}`);
  });
  const runnerOptions = {
    concurrency: options.concurrency,
    pollInterval: options.pollInterval,
    taskList: Object.assign({}, ...sets.map((set) => set.taskList)) as TaskList,
    parsedCronItems: parseCronItems(sets.flatMap((set) => set.cron ?? [])),
    pgPool: pool,
    noHandleSignals: true,
    logger,
  };
  let runner: Runner | null = null;
  let stopped = false;
  const launch = async () => {
    runner = await run(runnerOptions);
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
  try {
    for (const set of sets) await set.beforeStart?.();
    await launch();
  } catch (error) {
    // A start that fails leaves no pool behind.
    await pool.end().catch(() => {});
    throw error;
  }
  for (const set of sets) set.afterStart?.();
  return {
    stop: async () => {
      stopped = true;
      await runner?.stop().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
