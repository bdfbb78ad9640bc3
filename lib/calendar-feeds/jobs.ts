import "server-only";

/*
 * The graphile-worker jobs of calendar feeds (worker.ts runs them): a cron job every minute queues the
 * due feeds, one job per feed syncs it. The job key keeps one queued job per feed; the feed's lease
 * (sync.ts) keeps one sync per feed running.
 */

export const DUE_TASK = "calendar_feeds_due";
export const SYNC_TASK = "calendar_feed_sync";

/** SQL that queues the sync of the feeds in `ids` (a uuid[] parameter): a plain SELECT, as add_job is. */
export const ENQUEUE_SQL = (ids: string) =>
  `SELECT graphile_worker.add_job('${SYNC_TASK}', json_build_object('feedId', id::text),
     job_key => 'calendar_feed:' || id::text, max_attempts => 1)
   FROM unnest(${ids}) AS id`;

/** The feed id of a sync job's payload, or null for anything else. */
export function feedIdOf(payload: unknown): string | null {
  const id = (payload as { feedId?: unknown } | null)?.feedId;
  return typeof id === "string" && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}
