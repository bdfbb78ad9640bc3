import "server-only";
import type { PartitionedLog } from "@/lib/platform/db/partitions";
import { NOTIFICATION_RETENTION_DAYS } from "@/lib/webhook-subscriptions/model";

/*
 * The outbound log's retention (docs/outbound-webhooks.md, "Answers, retries and disabling"): messages,
 * deliveries and attempts are partitioned by UTC day (migration outbound_daily_partitions) and kept 30
 * days by dropping whole days, never by DELETE, so nothing is left for vacuum (the registry of
 * lib/retention/partitioned-logs.ts creates and drops the days). A delivery sits in its message's day, so
 * both go together; an attempt goes with its own day. The longest retry schedule is about 28 hours, so
 * nothing still being delivered is dropped. outbound_fan_outs is a hand-off queue, emptied by the relay,
 * and is not partitioned.
 */

export const OUTBOUND_RETENTION_DAYS = NOTIFICATION_RETENTION_DAYS;

export const OUTBOUND_LOGS: readonly PartitionedLog[] = [
  "outbound_messages",
  "outbound_deliveries",
  "outbound_attempts",
].map((table) => ({ table, retentionHours: OUTBOUND_RETENTION_DAYS * 24 }));
