import "server-only";
import { Logger, parseCronItems, run, type Runner } from "graphile-worker";
import pg from "pg";
import { directDatabaseUrl } from "@/lib/platform/db/pooler";
import { createComingPartitions } from "./partitioned-logs";

/*
 * The day partitions of the partitioned logs are created a week ahead by a cron item of the job queue
 * (graphile-worker, the schema the outbound worker and calendar feeds use), every hour, so a worker that
 * was stopped for up to a week finds its days in place. graphile-worker's known_crontabs table makes the
 * item fire once an hour across every process that runs it (web instances unless OUTBOUND_WORKER=off,
 * and `npm run worker`). Each start creates the coming days at once as well: a fresh database, or one
 * left alone longer than a week, has today's partition before the first request needs it. The retention
 * sweep drops the expired days (lib/retention/sweep.ts).
 */

export const PARTITIONS_TASK = "log_partitions_ahead";

export type PartitionWorker = { stop: () => Promise<void> };

export async function startPartitionWorker(
  options: { connectionString?: string; log?: (line: string) => void } = {},
): Promise<PartitionWorker> {
  // graphile-worker holds a session of its own (LISTEN), never through a transaction pooler.
  const connectionString = options.connectionString ?? directDatabaseUrl();
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const log = options.log ?? ((line: string) => console.warn(line));
  const pool = new pg.Pool({ connectionString, max: 2, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  pool.on("error", () => {});
  await createComingPartitions(pool);
  const logger = new Logger(() => (level, message) => {
    if (level === "error" || level === "warning") log(`log partition job: ${message}`);
  });
  let runner: Runner | null = null;
  let stopped = false;
  const launch = async () => {
    runner = await run({
      pgPool: pool,
      concurrency: 1,
      noHandleSignals: true,
      pollInterval: 60_000,
      taskList: { [PARTITIONS_TASK]: async () => void (await createComingPartitions(pool)) },
      parsedCronItems: parseCronItems([
        {
          task: PARTITIONS_TASK,
          match: "7 * * * *",
          identifier: PARTITIONS_TASK,
          options: { backfillPeriod: 0, maxAttempts: 3 },
        },
      ]),
      logger,
    });
    // A runner that dies with the database is started again once it answers.
    runner.promise.catch(() => void relaunch());
  };
  const relaunch = async () => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      if (stopped) return;
      try {
        await launch();
        return;
      } catch (error) {
        log(`log partition job: restart failed (retrying): ${error instanceof Error ? error.message : String(error)}`);
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
