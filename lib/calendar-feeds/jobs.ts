import "server-only";

/*
 * The graphile-worker jobs of calendar feeds (worker.ts runs them): a cron job every minute queues the
 * due feeds, one job per feed syncs it. The job key keeps one queued job per feed; the feed's lease
 * (sync.ts) keeps one sync per feed running.
 */

export const DUE_TASK = "calendar_feeds_due";
export const SYNC_TASK = "calendar_feed_sync";

/**
 * SQL that queues the sync of the feeds in `ids` of the accounts in `accounts` (uuid[] parameters, one
 * account per feed): a plain SELECT, as add_job is. The payload names the account, so the sync finds its
 * feed by primary key (docs/scaling.md, "Citus (on paper)").
 */
export const ENQUEUE_SQL = (ids: string, accounts: string) =>
  `SELECT graphile_worker.add_job('${SYNC_TASK}',
     json_build_object('feedId', f.id::text, 'accountId', f.account_id::text),
     job_key => 'calendar_feed:' || f.id::text, max_attempts => 1)
   FROM unnest(${ids}, ${accounts}) AS f(id, account_id)`;

const UUID = /^[0-9a-f-]{36}$/i;

/**
 * The feed of a sync job's payload with its account, or null for anything else. A job queued before the
 * payload carried the account has none: its sync finds the feed by id alone.
 */
export function feedJobOf(payload: unknown): { feedId: string; accountId: string | null } | null {
  const { feedId, accountId } = (payload ?? {}) as { feedId?: unknown; accountId?: unknown };
  if (typeof feedId !== "string" || !UUID.test(feedId)) return null;
  return { feedId, accountId: typeof accountId === "string" && UUID.test(accountId) ? accountId : null };
}
