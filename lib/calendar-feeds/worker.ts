import "server-only";
import { parseCronItems, type Task } from "graphile-worker";
import { db } from "@/lib/platform/db/client";
import { startJobRunner } from "@/lib/platform/db/job-runner";
import { DUE_TASK, ENQUEUE_SQL, feedJobOf, SYNC_TASK } from "./jobs";
import { syncFeed } from "./sync";

/*
 * Calendar feeds on the job queue of the outbound worker (graphile-worker, the same schema and
 * database): a cron item every minute queues the feeds that are due, and "calendar_feed_sync" jobs sync
 * them one by one (sync.ts). It runs wherever the outbound worker runs (web instances unless
 * OUTBOUND_WORKER=off, and `npm run worker`); graphile-worker's known_crontabs table makes the cron item
 * fire once per minute across all of them. A runner of its own, so a slow feed never holds a delivery
 * slot. The cron job also removes sync log rows older than 30 days.
 */

export type CalendarFeedWorker = { stop: () => Promise<void> };

const DUE_SQL = `SELECT id, account_id FROM calendar_feeds
  WHERE NOT paused AND next_sync_at <= now()
    AND (sync_lease IS NULL OR sync_started_at < now() - interval '5 minutes')
  ORDER BY next_sync_at LIMIT 1000`;

/** Queues every due feed; returns how many. */
export async function enqueueDueFeeds(): Promise<number> {
  const due = await db.pool.query<{ id: string; account_id: string }>(DUE_SQL);
  if (due.rows.length === 0) return 0;
  await db.pool.query(ENQUEUE_SQL("$1::uuid[]", "$2::uuid[]"), [
    due.rows.map((row) => row.id),
    due.rows.map((row) => row.account_id),
  ]);
  return due.rows.length;
}

export async function pruneSyncLog(): Promise<void> {
  await db.pool.query("DELETE FROM calendar_feed_syncs WHERE started_at < now() - interval '30 days'");
}

export async function startCalendarFeedWorker(
  options: { connectionString?: string; log?: (line: string) => void; pollIntervalMs?: number } = {},
): Promise<CalendarFeedWorker> {
  const due: Task = async () => {
    await enqueueDueFeeds();
    await pruneSyncLog();
  };
  // A sync that throws (the database went away) is not retried by the queue: the feed stays due and the
  // next minute's cron job queues it again.
  const sync: Task = async (payload) => {
    const job = feedJobOf(payload);
    if (job) await syncFeed(job.feedId, { dueOnly: true, accountId: job.accountId });
  };
  const worker = await startJobRunner({
    name: "calendar feed worker",
    connectionString: options.connectionString,
    log: options.log,
    poolSize: 4,
    restartDelayMs: 5_000,
    runnerOptions: () => ({
      concurrency: 2,
      pollInterval: options.pollIntervalMs ?? 2_000,
      taskList: { [DUE_TASK]: due, [SYNC_TASK]: sync },
      parsedCronItems: parseCronItems([
        { task: DUE_TASK, match: "* * * * *", identifier: DUE_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } },
      ]),
    }),
  });
  // The first due run at once, not at the next full minute: a fresh server picks up feeds straight away.
  void enqueueDueFeeds().catch(() => {});
  return worker;
}
