import "server-only";
import type pg from "pg";
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

/*
 * Partitions do not inherit storage parameters. A delivery is written by the relay, then updated when its
 * attempt is recorded; half-full pages keep the updated row on its page (a HOT update, no index entries),
 * as migration outbound_deliveries_fillfactor set for the table before it was partitioned.
 */
const DELIVERIES_FILLFACTOR = 50;

/**
 * Gives every day partition of the deliveries that lacks it the deliveries' fillfactor (the days are
 * created a week ahead, so they get it long before their first row); returns how many.
 */
export async function setDeliveryPartitionsFillfactor(pool: Pick<pg.Pool, "query">): Promise<number> {
  const { rows } = await pool.query<{ partition: string }>(
    `SELECT i.inhrelid::regclass::text AS partition FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'outbound_deliveries'::regclass
        AND NOT COALESCE(c.reloptions @> $1::text[], false)`,
    [[`fillfactor=${DELIVERIES_FILLFACTOR}`]],
  );
  // Names read from the catalogue (regclass output, quoted where needed), never from input.
  for (const { partition } of rows)
    await pool.query(`ALTER TABLE ${partition} SET (fillfactor = ${DELIVERIES_FILLFACTOR})`);
  return rows.length;
}
