import "server-only";
import { db } from "@/lib/platform/db/client";
import { FEED_LIMITS, type CalendarFeedView, type FeedState, type FeedSyncRow, type SyncResult } from "./model";

/*
 * The account's followed calendars for the dashboard, each with its state, the number of events it
 * brought in and its last syncs (the log keeps 30 days; the page shows the latest few).
 */

type FeedRow = {
  id: string;
  name: string;
  url: string;
  interval_minutes: number;
  paused: boolean;
  syncing: boolean;
  queued: boolean;
  last_synced_at: Date | null;
  last_result: SyncResult | null;
  last_error: string | null;
  consecutive_failures: number;
  next_sync_at: Date;
  event_count: number;
};

type SyncRow = {
  id: string;
  feed_id: string;
  started_at: Date;
  duration_ms: number;
  http_status: number | null;
  result: SyncResult;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  skipped: number;
  error: string | null;
};

function stateOf(row: FeedRow): FeedState {
  if (row.paused) return "paused";
  // A due feed is queued for the worker ("Sync now", or its interval passed): shown as syncing already.
  if (row.syncing || row.queued) return "syncing";
  if (row.consecutive_failures >= FEED_LIMITS.failingAfter || row.last_result === "failed") return "failing";
  if (row.last_result === "partial" || row.last_result === "limit") return "attention";
  return row.last_synced_at ? "ok" : "new";
}

export async function listFeeds(accountId: string, syncsPerFeed = 5): Promise<CalendarFeedView[]> {
  const feeds = await db.pool.query<FeedRow>(
    `SELECT f.id, f.name, f.url, f.interval_minutes, f.paused,
       (f.sync_lease IS NOT NULL AND f.sync_started_at > now() - interval '5 minutes') AS syncing,
       (f.next_sync_at <= now()) AS queued,
       f.last_synced_at, f.last_result, f.last_error, f.consecutive_failures, f.next_sync_at,
       (SELECT count(*)::int FROM events e WHERE e.account_id = f.account_id AND e.feed_id = f.id) AS event_count
     FROM calendar_feeds f WHERE f.account_id = $1::uuid ORDER BY f.created_at, f.id`,
    [accountId],
  );
  if (feeds.rows.length === 0) return [];
  const syncs = await db.pool.query<SyncRow>(
    `SELECT s.* FROM calendar_feeds f
     CROSS JOIN LATERAL (SELECT id, feed_id, started_at, duration_ms, http_status, result, created, updated, deleted,
         unchanged, skipped, error
       FROM calendar_feed_syncs WHERE feed_id = f.id ORDER BY started_at DESC LIMIT $2) s
     WHERE f.account_id = $1::uuid`,
    [accountId, syncsPerFeed],
  );
  const byFeed = new Map<string, FeedSyncRow[]>();
  for (const row of syncs.rows) {
    const list = byFeed.get(row.feed_id) ?? [];
    list.push({
      id: row.id,
      startedAt: row.started_at,
      durationMs: row.duration_ms,
      httpStatus: row.http_status,
      result: row.result,
      error: row.error,
      created: row.created,
      updated: row.updated,
      deleted: row.deleted,
      unchanged: row.unchanged,
      skipped: row.skipped,
    });
    byFeed.set(row.feed_id, list);
  }
  return feeds.rows.map((row) => ({
    id: row.id,
    name: row.name,
    url: row.url,
    intervalMinutes: row.interval_minutes,
    paused: row.paused,
    state: stateOf(row),
    eventCount: row.event_count,
    lastSyncedAt: row.last_synced_at,
    lastResult: row.last_result,
    lastError: row.last_error,
    consecutiveFailures: row.consecutive_failures,
    nextSyncAt: row.next_sync_at,
    syncs: byFeed.get(row.id) ?? [],
  }));
}
