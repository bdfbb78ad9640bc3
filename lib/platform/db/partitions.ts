import type pg from "pg";

/*
 * Day partitions of the time-partitioned logs (docs/scaling.md, "Time-partitioned logs"). The SQL
 * functions live in the daily_partitions migration; this module is what the worker's scheduled job,
 * server start-up, the migration runner and the retention sweep call (no server-only marker: the
 * migration runner runs outside the Next bundle). The logs and their retention are listed in
 * lib/retention/partitioned-logs.ts.
 *
 * Retention detaches a partition CONCURRENTLY before dropping it: a plain DETACH or DROP would take
 * ACCESS EXCLUSIVE on the parent and queue every writer of the log behind it. CONCURRENTLY cannot run
 * inside a transaction block (nor inside a function), so each partition takes two autocommitted
 * statements here. A detach interrupted half-way leaves the partition "pending detach"; the next run
 * finishes it with FINALIZE.
 */

export type PartitionedLog = {
  /** The partitioned parent table. */
  table: string;
  /** Partitions whose whole day is older than this are dropped. */
  retentionHours: number;
};

/** How many days ahead partitions exist, so a stopped worker has a week to come back. */
export const DAYS_AHEAD = 7;

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** A pool or a single client. */
type Queryable = Pick<pg.Pool, "query">;

export async function ensureDailyPartitions(
  pool: Queryable,
  tables: readonly string[],
  range: { from?: Date; to?: Date } = {},
): Promise<number> {
  const now = Date.now();
  const from = utcDay(range.from ?? new Date(now - 86_400_000));
  const to = utcDay(range.to ?? new Date(now + DAYS_AHEAD * 86_400_000));
  let created = 0;
  for (const table of tables) {
    const { rows } = await pool.query<{ created: number }>(
      "SELECT create_daily_partitions($1::regclass, $2::date, $3::date) AS created",
      [table, from, to],
    );
    created += rows[0]?.created ?? 0;
  }
  return created;
}

/**
 * The partitioned tables of the current schema (every one is a day-partitioned log): the migration runner
 * creates their coming days without knowing the domains' list.
 */
export async function partitionedTables(pool: Queryable): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c
      WHERE c.relkind = 'p' AND NOT c.relispartition AND c.relnamespace = current_schema()::regnamespace
      ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

export type DroppedPartition = { table: string; partition: string };

export async function dropExpiredPartitions(
  pool: Queryable,
  logs: readonly PartitionedLog[],
): Promise<DroppedPartition[]> {
  const dropped: DroppedPartition[] = [];
  for (const log of logs) {
    await finishPendingDetaches(pool, log.table);
    const { rows } = await pool.query<{ partition: string }>(
      `SELECT partition::text FROM expired_daily_partitions($1::regclass, now() - make_interval(hours => $2))`,
      [log.table, log.retentionHours],
    );
    for (const { partition } of rows.filter(stillThere)) {
      const done = await yieldingToAnotherSweep(async () => {
        await pool.query(`ALTER TABLE ${quoteName(log.table)} DETACH PARTITION ${partition} CONCURRENTLY`);
        await pool.query(`DROP TABLE IF EXISTS ${partition}`);
      });
      if (done) dropped.push({ table: log.table, partition });
    }
  }
  return dropped;
}

async function finishPendingDetaches(pool: Queryable, table: string): Promise<void> {
  const { rows } = await pool.query<{ partition: string }>(
    `SELECT i.inhrelid::regclass::text AS partition FROM pg_inherits i
      WHERE i.inhparent = $1::regclass AND i.inhdetachpending`,
    [table],
  );
  for (const { partition } of rows.filter(stillThere)) {
    await yieldingToAnotherSweep(async () => {
      await pool.query(`ALTER TABLE ${quoteName(table)} DETACH PARTITION ${partition} FINALIZE`);
      await pool.query(`DROP TABLE IF EXISTS ${partition}`);
    });
  }
}

/*
 * Every instance sweeps, and no lock can span the two transactions of a concurrent detach, so two sweeps
 * may reach the same day: the second finds it gone (undefined_table), already pending detach, or the one
 * pending detach a table allows taken (object_not_in_prerequisite_state). It leaves that day to the first
 * and goes on; anything else is an error. True when this sweep did the work.
 */
const ANOTHER_SWEEP = new Set(["42P01", "55000"]);

async function yieldingToAnotherSweep(work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    if (ANOTHER_SWEEP.has((error as { code?: string }).code ?? "")) return false;
    throw error;
  }
}

/*
 * A day another sweep dropped between the catalogue read and the name's output is printed as its bare OID
 * (regclass output of a relation that is gone); a real name made of digits would be printed quoted.
 */
const stillThere = ({ partition }: { partition: string }) => !/^\d+$/.test(partition);

// Table names come from the code's own registry, never from input; quoting keeps them exact anyway.
function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
