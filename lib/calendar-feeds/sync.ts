import "server-only";
import { createHash } from "node:crypto";
import { writeFeedEvents, type FeedWriteSummary } from "@/lib/events/feed-writer";
import { db } from "@/lib/platform/db/client";
import { safeTimeZone } from "@/lib/platform/format/zoned-time";
import { recordCalendarSync } from "@/lib/platform/observability/metrics";
import { fetchFeed, type FetchOptions } from "./fetch";
import type { SyncCounts, SyncResult } from "./model";
import { keyUid, parseFeed } from "./parse";

/*
 * One sync of one feed (docs/calendar-feeds.md, "Follow a calendar"). A lease on the feed's row makes it
 * the only sync of that feed, whatever the number of workers (graphile-worker's job key alone would let a
 * second job run while the first is locked); a lease left by a worker that died expires after 5 minutes.
 * A failed or malformed fetch writes nothing but its log row: what the feed brought in earlier stays.
 * The same body again (and a 304) writes nothing either: the body's hash is kept with the account's zone
 * and the day, since expanded rules look 365 days ahead from today and all-day dates depend on the zone.
 */

/**
 * `dueOnly`: the worker's jobs sync a feed only while it is due, so a job queued twice (by "Sync now" and
 * the scheduler, or while the first was running) syncs once. `accountId`: the feed's account as its job
 * names it, so the claim is a primary key lookup; without it the feed is found by id alone.
 */
export type SyncOptions = FetchOptions & { now?: Date; dueOnly?: boolean; accountId?: string | null };
export type SyncOutcome =
  { ran: false } | ({ ran: true; result: SyncResult; error: string | null; httpStatus: number | null } & SyncCounts);

type Claimed = {
  lease: string;
  account_id: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  content_hash: string | null;
  timezone: string;
};

const CLAIM_SQL = `UPDATE calendar_feeds f SET sync_lease = gen_random_uuid(), sync_started_at = now()
  FROM accounts a
  WHERE ($3::uuid IS NULL OR f.account_id = $3::uuid) AND f.id = $1::uuid AND a.id = f.account_id AND NOT f.paused
    AND (NOT $2::boolean OR f.next_sync_at <= now())
    AND (f.sync_lease IS NULL OR f.sync_started_at < now() - interval '5 minutes')
  RETURNING f.sync_lease AS lease, f.account_id, f.url, f.etag, f.last_modified, f.content_hash, a.timezone`;

// Releases the lease (only its own) and logs the run in one statement: a log row exists for every finished sync.
const FINISH_SQL = `WITH feed AS (
    UPDATE calendar_feeds SET sync_lease = NULL, sync_started_at = NULL, last_synced_at = now(),
      last_result = $3, last_error = $4,
      consecutive_failures = CASE WHEN $3 = 'failed' THEN consecutive_failures + 1 ELSE 0 END,
      next_sync_at = now() + interval_minutes * interval '1 minute',
      etag = CASE WHEN $5::boolean THEN $6 ELSE etag END,
      last_modified = CASE WHEN $5::boolean THEN $7 ELSE last_modified END,
      content_hash = CASE WHEN $5::boolean THEN $8 ELSE content_hash END,
      updated_at = now()
    WHERE account_id = $17::uuid AND id = $1::uuid AND sync_lease = $2::uuid
    RETURNING id, account_id)
  INSERT INTO calendar_feed_syncs (account_id, feed_id, started_at, duration_ms, http_status, result,
    created, updated, deleted, unchanged, skipped, error)
  SELECT account_id, id, $9::timestamptz, $10, $11, $3, $12, $13, $14, $15, $16, $4 FROM feed`;

const NONE: SyncCounts = { created: 0, updated: 0, deleted: 0, unchanged: 0, skipped: 0 };

type Finished = {
  result: SyncResult;
  error: string | null;
  httpStatus: number | null;
  counts: SyncCounts;
  /** New validators and hash to keep, when the body was written in full. */
  keep?: { etag: string | null; lastModified: string | null; hash: string };
};

export async function syncFeed(feedId: string, options: SyncOptions = {}): Promise<SyncOutcome> {
  const claimed = await db.pool.query<Claimed>(CLAIM_SQL, [
    feedId,
    options.dueOnly ?? false,
    options.accountId ?? null,
  ]);
  const feed = claimed.rows[0];
  if (!feed) return { ran: false };
  const startedAt = new Date();
  const started = performance.now();
  let finished: Finished;
  try {
    finished = await run(feedId, feed, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finished = {
      result: "failed",
      error: `The sync stopped (${message}); it is tried again.`,
      httpStatus: null,
      counts: NONE,
    };
  }
  const { result, error, httpStatus, counts, keep } = finished;
  await db.pool.query(FINISH_SQL, [
    feedId,
    feed.lease,
    result,
    error,
    keep !== undefined,
    keep?.etag ?? null,
    keep?.lastModified ?? null,
    keep?.hash ?? null,
    startedAt.toISOString(),
    Math.round(performance.now() - started),
    httpStatus,
    counts.created,
    counts.updated,
    counts.deleted,
    counts.unchanged,
    counts.skipped,
    feed.account_id,
  ]);
  recordCalendarSync(result === "failed" ? "failed" : result === "unchanged" ? "not_modified" : "succeeded");
  return { ran: true, result, error, httpStatus, ...counts };
}

async function run(feedId: string, feed: Claimed, options: SyncOptions): Promise<Finished> {
  const fetched = await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.last_modified }, options);
  if (fetched.kind === "failed")
    return { result: "failed", error: fetched.error, httpStatus: fetched.status, counts: NONE };
  if (fetched.kind === "not_modified") return { result: "unchanged", error: null, httpStatus: 304, counts: NONE };
  const now = options.now ?? new Date();
  const timeZone = safeTimeZone(feed.timezone);
  const hash = createHash("sha256")
    .update(fetched.body)
    .update(`\u0000${timeZone}\u0000${now.toISOString().slice(0, 10)}`)
    .digest("hex");
  const keep = { etag: fetched.etag, lastModified: fetched.lastModified, hash };
  if (hash === feed.content_hash)
    return { result: "unchanged", error: null, httpStatus: fetched.status, counts: NONE, keep };
  const parsed = parseFeed(fetched.body, fetched.contentType, { timeZone, now });
  if (!parsed.ok) return { result: "failed", error: parsed.error, httpStatus: fetched.status, counts: NONE };
  const written = await writeFeedEvents(feed.account_id, feedId, parsed.items, (key) =>
    parsed.skippedUids.has(keyUid(key)),
  );
  const skipped = written.skipped + parsed.problems.length;
  const counts = { ...pick(written), skipped };
  if (written.limit) {
    const { plan, maxEvents, notImported } = written.limit;
    const error =
      `Stopped at the ${plan} plan's limit of ${maxEvents.toLocaleString("en-US")} events: ` +
      `${notImported.toLocaleString("en-US")} events of this feed were not imported.`;
    return { result: "limit", error, httpStatus: fetched.status, counts };
  }
  const problem = parsed.problems[0] ?? (written.conflicts ? conflictMessage(written.conflicts) : null);
  return { result: problem ? "partial" : "ok", error: problem, httpStatus: fetched.status, counts, keep };
}

const pick = ({ created, updated, deleted, unchanged }: FeedWriteSummary) => ({ created, updated, deleted, unchanged });

const conflictMessage = (count: number) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? "event was" : "events were"} skipped: ` +
  "another event of this account already has the same title, start time and location.";
