import "server-only";
import { db } from "@/lib/platform/db/client";
import { isUuid } from "@/lib/platform/ids";
import { CHART_HOURS, type HourBucket, type Overview } from "./model";
import { ACCOUNT_SQL, FEEDS_SQL, HOURS_SQL, SOURCES_SQL, SUBSCRIPTIONS_SQL } from "./queries";

const HOUR_MS = 3_600_000;

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

type SourceRow = {
  id: string;
  public_id: string;
  name: string;
  active: boolean;
  last_delivery_at: Date | null;
  last_status: number | null;
  last_error_code: string | null;
  deliveries: number;
  refused: number;
  failing: boolean;
};
type SubscriptionRow = {
  id: string;
  url: string;
  status: "active" | "disabled";
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  last_delivery_at: Date | null;
  last_error: string | null;
  attempts: number;
  succeeded: number;
};
type FeedRow = {
  id: string;
  name: string;
  paused: boolean;
  last_synced_at: Date | null;
  last_result: string | null;
  last_error: string | null;
  syncs: number;
  failed: number;
};
type AccountRow = {
  active_keys: number;
  used_keys: number;
  expiring: Array<{ id: string; name: string; prefix: string; expires_at: string }>;
  waiting: number;
  created_key: boolean;
  connected_webhook: boolean;
  installed_widget: boolean;
  added_subscription: boolean;
};

/**
 * Everything the Overview shows for one account, in one round of queries run side by side (each on its
 * own pooled connection): the counters, never the logs.
 */
export async function readOverview(accountId: string, now = new Date()): Promise<Overview | null> {
  if (!isUuid(accountId)) return null;
  const current = hourOf(now);
  const since = (hours: number) => new Date(current.getTime() - hours * HOUR_MS).toISOString();
  const day = [accountId, since(23)];
  const [sources, subscriptions, feeds, hours, account] = await Promise.all([
    db.pool.query<SourceRow>(SOURCES_SQL, [...day, since(1)]),
    db.pool.query<SubscriptionRow>(SUBSCRIPTIONS_SQL, day),
    db.pool.query<FeedRow>(FEEDS_SQL, day),
    db.pool.query<HourBucket>(HOURS_SQL, [accountId, since(CHART_HOURS - 1)]),
    db.pool.query<AccountRow>(ACCOUNT_SQL, [accountId]),
  ]);
  const facts = account.rows[0];
  return {
    sources: sources.rows.map((row) => ({
      id: row.id,
      publicId: row.public_id,
      name: row.name,
      active: row.active,
      lastDeliveryAt: row.last_delivery_at,
      lastStatus: row.last_status,
      lastErrorCode: row.last_error_code,
      deliveries24h: row.deliveries,
      refused24h: row.refused,
      failing: row.active && row.failing,
    })),
    feeds: feeds.rows.map((row) => ({
      id: row.id,
      name: row.name,
      paused: row.paused,
      lastSyncedAt: row.last_synced_at,
      lastResult: row.last_result,
      lastError: row.last_error,
      syncs24h: row.syncs,
      failed24h: row.failed,
    })),
    subscriptions: subscriptions.rows.map((row) => ({
      id: row.id,
      url: row.url,
      status: row.status,
      disabledReason: row.disabled_reason,
      disabledAt: row.disabled_at,
      failingSince: row.failing_since,
      lastDeliveryAt: row.last_delivery_at,
      lastError: row.last_error,
      attempts24h: row.attempts,
      succeeded24h: row.succeeded,
    })),
    keys: {
      active: facts.active_keys,
      usedLast30Days: facts.used_keys,
      expiringSoon: facts.expiring.map((key) => ({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        expiresAt: new Date(key.expires_at),
      })),
    },
    waitingForPerson: facts.waiting,
    onboarding: {
      createdKey: facts.created_key,
      connectedWebhook: facts.connected_webhook,
      installedWidget: facts.installed_widget,
      addedSubscription: facts.added_subscription,
    },
    hours: everyHour(hours.rows, current),
    now,
  };
}

/** The chart's hours, oldest first, with the hours nothing happened in as zeros. */
function everyHour(rows: HourBucket[], current: Date): HourBucket[] {
  const byHour = new Map(rows.map((row) => [new Date(row.hour).getTime(), row]));
  return Array.from({ length: CHART_HOURS }, (_, index) => {
    const hour = new Date(current.getTime() - (CHART_HOURS - 1 - index) * HOUR_MS);
    const row = byHour.get(hour.getTime());
    return {
      hour,
      accepted: row?.accepted ?? 0,
      refused: row?.refused ?? 0,
      succeeded: row?.succeeded ?? 0,
      failed: row?.failed ?? 0,
    };
  });
}
