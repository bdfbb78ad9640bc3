import "server-only";
import type { SessionContext } from "@/lib/auth/session";
import { listFeeds } from "@/lib/calendar-feeds/list";
import type { CalendarFeedView, FeedSyncRow } from "@/lib/calendar-feeds/model";
import { originAndPath } from "@/lib/webhook-subscriptions/target-url";
import { formatDateTime } from "@/lib/platform/format/date-time";
import { relativeTime } from "@/lib/platform/format/relative-time";
import type { FeedRowView, SyncEntry } from "./_components/feed-view";

/* The account's followed calendars as the page shows them, dates formatted in the account's zone. */
export async function feedRows(context: SessionContext): Promise<FeedRowView[]> {
  const feeds = await listFeeds(context.account.id);
  const now = new Date();
  return feeds.map((feed) => feedRow(feed, context.account.timezone, now));
}

function every(minutes: number): string {
  if (minutes === 1440) return "Synced once a day";
  if (minutes % 60 === 0) return minutes === 60 ? "Synced every hour" : `Synced every ${minutes / 60} hours`;
  return `Synced every ${minutes} minutes`;
}

function summary(sync: FeedSyncRow): string {
  if (sync.result === "failed") return sync.httpStatus ? `Failed (HTTP ${sync.httpStatus})` : "Failed";
  if (sync.result === "unchanged") return sync.httpStatus === 304 ? "No changes (304)" : "No changes";
  const parts = [
    sync.created ? `${sync.created.toLocaleString("en-US")} added` : null,
    sync.updated ? `${sync.updated.toLocaleString("en-US")} updated` : null,
    sync.deleted ? `${sync.deleted.toLocaleString("en-US")} removed` : null,
    sync.unchanged ? `${sync.unchanged.toLocaleString("en-US")} unchanged` : null,
    sync.skipped ? `${sync.skipped.toLocaleString("en-US")} skipped` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "The feed has no events";
}

function syncEntry(sync: FeedSyncRow, timeZone: string, now: Date): SyncEntry {
  return {
    id: sync.id,
    when: relativeTime(sync.startedAt, now),
    whenFull: formatDateTime(sync.startedAt, timeZone),
    result: sync.result,
    summary: summary(sync),
    error: sync.error,
  };
}

function feedRow(feed: CalendarFeedView, timeZone: string, now: Date): FeedRowView {
  const syncs = feed.syncs.map((sync) => syncEntry(sync, timeZone, now));
  return {
    id: feed.id,
    name: feed.name,
    url: originAndPath(feed.url),
    every: every(feed.intervalMinutes),
    state: feed.state,
    error: feed.lastResult === "ok" || feed.lastResult === "unchanged" ? null : feed.lastError,
    failures: feed.consecutiveFailures,
    eventCount: feed.eventCount,
    lastSync: syncs[0] ?? null,
    nextSync: feed.nextSyncAt <= now ? "due now" : relativeTime(feed.nextSyncAt, now),
    syncs,
  };
}
