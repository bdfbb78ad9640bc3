import "server-only";
import type pg from "pg";
import type { JobSet } from "@/lib/platform/db/job-runner";
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

/** The coming days on the process's job runner (lib/server/background-jobs.ts): at start, then hourly. */
export const logPartitionJobs = (pool: pg.Pool): JobSet => ({
  taskList: { [PARTITIONS_TASK]: async () => void (await createComingPartitions(pool)) },
  cron: [
    {
      task: PARTITIONS_TASK,
      match: "7 * * * *",
      identifier: PARTITIONS_TASK,
      options: { backfillPeriod: 0, maxAttempts: 3 },
    },
  ],
  beforeStart: () => createComingPartitions(pool),
});
