import "server-only";
import type { Task } from "graphile-worker";
import { db } from "@/lib/platform/db/client";
import type { JobSet } from "@/lib/platform/db/job-runner";
import { DUE_TASK, ENQUEUE_SQL, feedJobOf, SYNC_TASK } from "./jobs";
import { syncFeed } from "./sync";

/*
 * Calendar feeds on the process's job queue (graphile-worker in the app's database, one runner for every
 * domain's jobs: lib/server/background-jobs.ts): a cron item every minute queues the feeds that are due,
 * and "calendar_feed_sync" jobs sync them one by one (sync.ts). It runs wherever the outbound worker runs
 * (web instances unless OUTBOUND_WORKER=off, and `npm run worker`); graphile-worker's known_crontabs table
 * makes the cron item fire once per minute across all of them. The outbound deliveries have a queue of
 * their own, so a slow feed never holds a delivery slot. The cron job also removes sync log rows older
 * than 30 days.
 */

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

// A sync that throws (the database went away) is not retried by the queue: the feed stays due and the
// next minute's cron job queues it again.
const sync: Task = async (payload) => {
  const job = feedJobOf(payload);
  if (job) await syncFeed(job.feedId, { dueOnly: true, accountId: job.accountId });
};

/** Calendar feeds on the process's job runner (lib/server/background-jobs.ts). */
export const calendarFeedJobs = (): JobSet => ({
  taskList: {
    [DUE_TASK]: async () => {
      await enqueueDueFeeds();
      await pruneSyncLog();
    },
    [SYNC_TASK]: sync,
  },
  cron: [{ task: DUE_TASK, match: "* * * * *", identifier: DUE_TASK, options: { backfillPeriod: 0, maxAttempts: 1 } }],
  // The first due run at once, not at the next full minute: a fresh server picks up feeds straight away.
  afterStart: () => void enqueueDueFeeds().catch(() => {}),
});
