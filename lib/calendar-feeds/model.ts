/*
 * Calendar feeds in (docs/calendar-feeds.md, "Follow a calendar"): the shapes and limits the dashboard,
 * the sync and the worker share. No server imports: client components read the types and limits.
 */

export const FEED_LIMITS = {
  name: 100,
  /** Minutes between syncs: the default, and the range a feed may choose. */
  defaultInterval: 15,
  minInterval: 5,
  maxInterval: 1440,
  /** The body is read as a stream and the fetch ends at this many bytes. */
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
  /** A feed failing this many syncs in a row is shown as failing. */
  failingAfter: 5,
} as const;

/**
 * How a sync ended: ok (written), unchanged (304 or the same content), partial (some VEVENTs skipped), limit
 * (stopped at the plan's limit), failed.
 */
export type SyncResult = "ok" | "unchanged" | "partial" | "limit" | "failed";

export type SyncCounts = { created: number; updated: number; deleted: number; unchanged: number; skipped: number };

export type FeedSyncRow = SyncCounts & {
  id: string;
  startedAt: Date;
  durationMs: number;
  httpStatus: number | null;
  result: SyncResult;
  error: string | null;
};

/** The state a feed is shown in. */
/** "attention": the last sync wrote the feed but skipped entries or stopped at the plan's limit. */
export type FeedState = "syncing" | "paused" | "failing" | "attention" | "ok" | "new";

export type CalendarFeedView = {
  id: string;
  name: string;
  url: string;
  intervalMinutes: number;
  paused: boolean;
  state: FeedState;
  eventCount: number;
  lastSyncedAt: Date | null;
  lastResult: SyncResult | null;
  lastError: string | null;
  consecutiveFailures: number;
  nextSyncAt: Date;
  syncs: FeedSyncRow[];
};
