import pg from "pg";
import { dropExpiredPartitions } from "@/lib/platform/db/partitions";
import { runMain, startBenchDatabase } from "./harness";

/*
 * npm run bench:retention — what retention of the webhook delivery log costs, in one run on one database:
 * 35 days of synthetic log rows (generate_series, BENCH_ROWS_PER_DAY a day, 200,000 by default), then
 *   (A) the batched DELETE sweep the log had before it was partitioned (the statement is kept here as the
 *       reference), over the 5 expired days of a plain table with the log's former keys and indexes;
 *   (B) dropping the 5 expired day partitions of the partitioned log (lib/platform/db/partitions.ts, as the
 *       retention sweep runs it).
 * Both tables hold the same rows. Printed for each: WAL written (pg_current_wal_lsn before and after), dead
 * tuples left (pg_stat_user_tables.n_dead_tup), wall time, and the table's size with its indexes before and
 * after (pg_total_relation_size), then B/A. Autovacuum is off on both tables, so the dead tuples are what
 * the sweep leaves for vacuum; the DELETE runs without the sweep's 50 ms pause between batches.
 */

const ROWS_PER_DAY = Number(process.env.BENCH_ROWS_PER_DAY ?? 200_000);
const DAYS = 35;
const RETENTION_DAYS = 30;
const BATCH = 1_000;
const PLAIN = "webhook_deliveries_plain";

// The sweep's statement for the delivery log before partitioning (lib/retention/sweep.ts of that time).
const REFERENCE_DELETE = `DELETE FROM ${PLAIN} WHERE id IN (
    SELECT id FROM ${PLAIN} WHERE received_at < now() - interval '${RETENTION_DAYS} days'
    ORDER BY received_at LIMIT $1 FOR UPDATE SKIP LOCKED)`;

type Figures = { rows: number; walBytes: number; deadTuples: number; seconds: number; before: number; after: number };

runMain(async () => {
  const database = await startBenchDatabase("retention");
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    console.log(`▸ ${DAYS} days × ${ROWS_PER_DAY.toLocaleString("en")} rows a day into both tables…`);
    await seed(client);
    const expired = await count(client, `received_at < now() - interval '${RETENTION_DAYS} days'`);
    console.log(`  ${expired.toLocaleString("en")} rows are past ${RETENTION_DAYS} days`);

    const a = await measure(client, PLAIN, async () => {
      let deleted = 0;
      for (;;) {
        const batch = (await client.query(REFERENCE_DELETE, [BATCH])).rowCount ?? 0;
        deleted += batch;
        if (batch < BATCH) return deleted;
      }
    });
    const total = await count(client, "true");
    const b = await measure(client, "webhook_deliveries", async () => {
      const dropped = await dropExpiredPartitions(client, [
        { table: "webhook_deliveries", retentionHours: RETENTION_DAYS * 24 },
      ]);
      console.log(`  (B) dropped ${dropped.map((entry) => entry.partition).join(", ")}`);
      return 0;
    });
    // Counted after the clock stopped: a count of millions of rows is no part of the drop.
    b.rows = total - (await count(client, "true"));

    report("(A) DELETE sweep, plain table", a);
    report("(B) partition drop", b);
    const ratio = (x: number, y: number) => (y === 0 ? "–" : (x / y).toPrecision(3));
    console.log(
      `B/A: WAL ${ratio(b.walBytes, a.walBytes)}, dead tuples ${ratio(b.deadTuples, a.deadTuples)}, ` +
        `time ${ratio(b.seconds, a.seconds)}, size after ${ratio(b.after, a.after)}`,
    );
    return a.rows === b.rows && b.rows === expired ? 0 : 1;
  } finally {
    await client.end();
    await database.dispose();
  }
});

/*
 * Rows spread evenly over 35 whole UTC days before today, with a body and headers of a typical request. No
 * row falls between the 30-day day boundary and now() - 30 days: both retentions then remove exactly the 5
 * expired days (a partition goes only once its whole day is past retention).
 */
async function seed(client: pg.Client): Promise<void> {
  await client.query(`WITH a AS (INSERT INTO accounts (name) VALUES ('Retention') RETURNING id)
    INSERT INTO webhook_sources (account_id, public_id, name, secret_ciphertext)
    SELECT id, 'src_retention', 'Bench', 'sealed' FROM a`);
  const start = Date.now();
  await client.query(
    `SELECT create_daily_partitions('webhook_deliveries', (now() AT TIME ZONE 'UTC')::date - ${DAYS},
       (now() AT TIME ZONE 'UTC')::date)`,
  );
  await client.query(
    `INSERT INTO webhook_deliveries (account_id, source_id, received_at, action, status, event_title, latency_ms,
       body, body_bytes, headers)
     SELECT s.account_id, s.id, t, 'upsert', 200, 'Spring Open Day ' || (n % 500), 3 + n % 40,
       '{"action":"upsert","event":{"title":"Spring Open Day ' || (n % 500) || '","starts_at":"2026-05-01T10:00:00' ||
         '+02:00","location":"Main Hall","description":"Guided tours every hour"}}', 160,
       '{"content_type":"application/json","user_agent":"booking-platform/2.1","signature_valid":true}'::jsonb
     FROM webhook_sources s,
       LATERAL (SELECT n, date_trunc('day', now(), 'UTC') - interval '${DAYS} days'
                  + (n::float8 / $1) * interval '1 day' AS t
                FROM generate_series(0, $1 * ${DAYS} - 1) n) g
     WHERE s.public_id = 'src_retention'
       AND NOT (t >= date_trunc('day', now(), 'UTC') - interval '${RETENTION_DAYS} days'
                AND t < now() - interval '${RETENTION_DAYS} days' + interval '10 minutes')`,
    [ROWS_PER_DAY],
  );
  await client.query(`CREATE TABLE ${PLAIN} (LIKE webhook_deliveries INCLUDING DEFAULTS)
    WITH (autovacuum_enabled = false)`);
  await client.query(`INSERT INTO ${PLAIN} SELECT * FROM webhook_deliveries`);
  // The log's keys and indexes before partitioning (migrations events_webhook, webhook_logs_daily_partitions).
  await client.query(`ALTER TABLE ${PLAIN} ADD PRIMARY KEY (id)`);
  await client.query(`CREATE INDEX ON ${PLAIN} (source_id, received_at DESC, id DESC)`);
  await client.query(`CREATE INDEX ON ${PLAIN} (received_at)`);
  for (const partition of await partitionsOf(client))
    await client.query(`ALTER TABLE ${partition} SET (autovacuum_enabled = false)`);
  await client.query(`VACUUM ANALYZE ${PLAIN}`);
  await client.query("VACUUM ANALYZE webhook_deliveries");
  console.log(`  seeded in ${((Date.now() - start) / 1000).toFixed(0)} s`);
}

async function partitionsOf(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'webhook_deliveries'::regclass",
  );
  return rows.map((row) => row.name);
}

async function count(client: pg.Client, where: string): Promise<number> {
  return Number((await client.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`)).rows[0].n);
}

// The table itself, or its partitions (pg_partition_tree lists nothing for a plain table).
const TREE = "SELECT relid FROM pg_partition_tree($1::regclass) UNION SELECT $1::regclass";

/** The table's heap and indexes, over its partitions when it has them. */
async function size(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query(`SELECT sum(pg_total_relation_size(relid))::bigint AS bytes FROM (${TREE}) t`, [
    table,
  ]);
  return Number(rows[0].bytes);
}

async function deadTuples(client: pg.Client, table: string): Promise<number> {
  await client.query("SELECT pg_stat_force_next_flush()");
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query(
    `SELECT COALESCE(sum(n_dead_tup), 0)::bigint AS n FROM pg_stat_user_tables
      WHERE relid IN (${TREE})`,
    [table],
  );
  return Number(rows[0].n);
}

async function measure(client: pg.Client, table: string, run: () => Promise<number>): Promise<Figures> {
  await client.query("CHECKPOINT");
  const before = await size(client, table);
  const lsn = (await client.query("SELECT pg_current_wal_lsn() AS lsn")).rows[0].lsn;
  const started = performance.now();
  const rows = await run();
  const seconds = (performance.now() - started) / 1000;
  const wal = await client.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint AS bytes", [lsn]);
  return {
    rows,
    walBytes: Number(wal.rows[0].bytes),
    deadTuples: await deadTuples(client, table),
    seconds,
    before,
    after: await size(client, table),
  };
}

function report(label: string, figures: Figures): void {
  const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
  console.log(
    `${label}: ${figures.rows.toLocaleString("en")} rows, WAL ${mb(figures.walBytes)}, ` +
      `dead tuples ${figures.deadTuples.toLocaleString("en")}, ${figures.seconds.toFixed(2)} s, ` +
      `size ${mb(figures.before)} → ${mb(figures.after)}`,
  );
}
