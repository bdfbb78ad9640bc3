import "server-only";
import type pg from "pg";
import { IDEMPOTENCY_RETENTION_HOURS } from "@/lib/api/idempotency-retention";
import { DELIVERY_RETENTION_DAYS } from "@/lib/events-webhook/deliveries";
import { OUTBOUND_LOGS } from "@/lib/outbound/retention";
import {
  dropExpiredPartitions,
  ensureDailyPartitions,
  type DroppedPartition,
  type PartitionedLog,
} from "@/lib/platform/db/partitions";

/*
 * The logs partitioned by UTC day (docs/scaling.md, "Time-partitioned logs") and how long each keeps its
 * days: the one list the retention sweep (drops expired days) and the worker's partition job (creates the
 * coming days) both read, so a log added here is created ahead and retained without another change.
 * A table partitioned by a migration must be listed here: a day without its partition refuses every insert
 * of that day.
 */

/**
 * Replay records matter only within the ±300 s timestamp window of their signed time; their day is kept
 * until a day after it ended, so a request signed just before midnight still finds its record.
 */
export const REPLAY_RETENTION_HOURS = 24;

export const PARTITIONED_LOGS: readonly PartitionedLog[] = [
  { table: "webhook_deliveries", retentionHours: DELIVERY_RETENTION_DAYS * 24 },
  { table: "webhook_replays", retentionHours: REPLAY_RETENTION_HOURS },
  { table: "idempotency_keys", retentionHours: IDEMPOTENCY_RETENTION_HOURS },
  // Notifications, deliveries and attempts, 30 days (lib/outbound/retention.ts).
  ...OUTBOUND_LOGS,
];

/** Creates the missing day partitions of every registered log, yesterday to a week ahead; returns how many. */
export function createComingPartitions(pool: pg.Pool, logs = PARTITIONED_LOGS): Promise<number> {
  return ensureDailyPartitions(
    pool,
    logs.map((log) => log.table),
  );
}

/** Detaches and drops the days each registered log keeps no longer. */
export function dropExpiredLogPartitions(pool: pg.Pool, logs = PARTITIONED_LOGS): Promise<DroppedPartition[]> {
  return dropExpiredPartitions(pool, logs);
}
