import "server-only";
import type pg from "pg";
import { db } from "@/lib/platform/db/client";
import { closeIdleConversations } from "@/lib/conversations/agent";
import { DELIVERY_RETENTION_DAYS } from "@/lib/events-webhook/deliveries";
import { errorFields, logger } from "@/lib/platform/observability/log";
import { createComingPartitions, dropExpiredLogPartitions } from "./partitioned-logs";

/*
 * The one retention sweep over every domain's expiring rows, so one schedule covers them. The logs that
 * grow with traffic (the events webhook's delivery log and replay records, the API's Idempotency-Key
 * answers; lib/retention/partitioned-logs.ts) are partitioned by day and lose whole days: a DELETE would
 * write every row to the WAL and leave it dead for vacuum. The rest is deleted in small batches so no
 * statement holds many locks or runs long: rate-limit rows that expired over an hour ago, and the
 * Overview's hourly counters past the logs' 30 days. FOR UPDATE SKIP LOCKED lets several instances sweep at
 * once without waiting on or double-deleting each other's rows; two instances dropping partitions at once
 * meet on the parent's lock and the second finds the day gone.
 */

export type SweepResult = {
  /** Day partitions of the partitioned logs dropped (lib/retention/partitioned-logs.ts). */
  logDaysDropped: number;
  rateLimits: number;
  hourlyCounters: number;
};

const BATCHES = {
  rateLimits: `DELETE FROM rate_limits WHERE key IN (
      SELECT key FROM rate_limits WHERE expire < (extract(epoch FROM now()) * 1000)::bigint - 3600000
      LIMIT $1 FOR UPDATE SKIP LOCKED)`,
  // The Overview's hourly counters (lib/overview) live as long as the logs they count.
  hourlyCounters: `WITH inbound AS (
      DELETE FROM webhook_delivery_hours WHERE (account_id, hour, source_id, outcome) IN (
        SELECT account_id, hour, source_id, outcome FROM webhook_delivery_hours
        WHERE hour < now() - interval '${DELIVERY_RETENTION_DAYS} days' LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING 1),
    outbound AS (
      DELETE FROM outbound_attempt_hours WHERE (account_id, hour, subscription_id, outcome) IN (
        SELECT account_id, hour, subscription_id, outcome FROM outbound_attempt_hours
        WHERE hour < now() - interval '${DELIVERY_RETENTION_DAYS} days' LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING 1)
    SELECT 1 FROM inbound UNION ALL SELECT 1 FROM outbound`,
} as const;

export async function sweepRetention(
  options: { pool?: pg.Pool; batchSize?: number; maxBatches?: number; pauseMs?: number } = {},
): Promise<SweepResult> {
  const pool = options.pool ?? db.pool;
  const batchSize = options.batchSize ?? 1_000;
  const maxBatches = options.maxBatches ?? 500;
  // The worker's hourly job creates the coming days too; this keeps them coming where no worker runs.
  await createComingPartitions(pool);
  const result: SweepResult = {
    logDaysDropped: (await dropExpiredLogPartitions(pool)).length,
    rateLimits: 0,
    hourlyCounters: 0,
  };
  for (const [kind, sql] of Object.entries(BATCHES) as [keyof SweepResult, string][]) {
    for (let batch = 0; batch < maxBatches; batch++) {
      const deleted = (await pool.query(sql, [batchSize])).rowCount ?? 0;
      result[kind] += deleted;
      if (deleted < batchSize) break;
      // A short pause between batches leaves room for the webhook's own writes.
      if (options.pauseMs !== 0) await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 50));
    }
  }
  return result;
}

const globalForSweep = globalThis as unknown as { __webhookRetention?: NodeJS.Timeout };

/**
 * Runs the sweep every `intervalMs` (default 10 minutes) in this process, first after a random delay so
 * instances started together do not sweep in lockstep. Timers are unref'd: they never keep the process
 * alive. Failures (database down) are reported and retried at the next tick.
 */
export function startRetentionSchedule(intervalMs = 10 * 60_000): void {
  if (globalForSweep.__webhookRetention) return;
  // Conversations idle for 24 hours are closed on the same schedule (docs/conversations.md, "States").
  const run = () =>
    Promise.all([sweepRetention(), closeIdleConversations()]).catch((error: unknown) => {
      logger().warn(errorFields(error), "retention sweep failed; retrying at the next run");
    });
  const first = setTimeout(
    () => {
      void run();
      globalForSweep.__webhookRetention = setInterval(() => void run(), intervalMs);
      globalForSweep.__webhookRetention.unref();
    },
    30_000 + Math.floor(Math.random() * 30_000),
  );
  first.unref();
  globalForSweep.__webhookRetention = first;
}
