import "server-only";
import { calendarFeedJobs } from "@/lib/calendar-feeds/worker";
import { startJobRunner, type JobRunner } from "@/lib/platform/db/job-runner";
import { logPartitionJobs } from "@/lib/retention/partition-worker";

/*
 * The process's graphile-worker jobs, on one runner (one pool, one LISTEN session, one poll): calendar feed
 * syncs (docs/calendar-feeds.md) and the partitioned logs' coming days (docs/scaling.md). Started by every
 * process that runs workers: web instances unless OUTBOUND_WORKER=off, and `npm run worker`. The coming
 * days are created before the runner starts, so a failure there fails the start.
 */
export function startBackgroundJobs(
  options: { connectionString?: string; log?: (line: string) => void; pollIntervalMs?: number } = {},
): Promise<JobRunner> {
  return startJobRunner({
    name: "background jobs",
    connectionString: options.connectionString,
    log: options.log,
    poolSize: 4,
    restartDelayMs: 5_000,
    concurrency: 2,
    pollInterval: options.pollIntervalMs ?? 2_000,
    jobs: [calendarFeedJobs, logPartitionJobs],
  });
}
