import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, type DatabaseBefore } from "../support/migrate-to";

/*
 * Migration webhook_logs_daily_partitions on a populated database: the delivery log, the replay records
 * and the Idempotency-Key answers, spread over 40 days (midnight edges included), are all still there
 * afterwards, unchanged, each in its day's partition.
 */

const MIGRATION = "20261127022000_webhook_logs_daily_partitions";
const PER_DAY = 50;
const DAYS = 40;

// Column lists the checksums cover: every column the tables had before the migration.
const DELIVERY_COLUMNS = `id, account_id, source_id, received_at, action, status, event_title, occurrence_at,
  error_code, latency_ms, body, body_bytes, headers`;
const REPLAY_COLUMNS = "source_id, signature, accepted_at";
const IDEMPOTENCY_COLUMNS = "api_key_id, key, fingerprint, status, body, sealed, headers, created_at, completed_at";

let before: DatabaseBefore;
beforeAll(async () => {
  before = await databaseBefore(MIGRATION);
  const db = before.client;
  const account = (await db.query("INSERT INTO accounts (name) VALUES ('Before') RETURNING id")).rows[0].id;
  const sources = await db.query(
    `INSERT INTO webhook_sources (account_id, public_id, name, secret_ciphertext)
     SELECT $1, 'src_before_' || n, 'Source ' || n, 'sealed' FROM generate_series(1, 2) n RETURNING id`,
    [account],
  );
  const key = await db.query(
    `INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, scopes)
     VALUES ($1, 'Zapier', 'hash-before', 'sk_live_abcd', 'wxyz', '{write:leads}') RETURNING id`,
    [account],
  );
  // Rows every ~29 minutes over 40 days, plus the last millisecond before and the first at some midnights.
  await db.query(
    `INSERT INTO webhook_deliveries (account_id, source_id, received_at, action, status, event_title, error_code,
       latency_ms, body, body_bytes, headers, occurrence_at)
     SELECT $1, ($2::uuid[])[1 + n % 2], t, CASE WHEN n % 3 = 0 THEN 'delete' ELSE 'upsert' END,
       CASE WHEN n % 7 = 0 THEN 401 ELSE 200 END, 'Event ' || n, CASE WHEN n % 7 = 0 THEN 'invalid_signature' END,
       n % 90, '{"n":' || n || '}', 7 + n, jsonb_build_object('n', n), CASE WHEN n % 5 = 0 THEN t + interval '1 day' END
     FROM (SELECT n, date_trunc('day', now(), 'UTC') - interval '${DAYS} days' + n * interval '${(24 * 60) / PER_DAY} minutes' AS t
           FROM generate_series(0, ${DAYS * PER_DAY}) n
           UNION ALL
           SELECT 100000 + d, date_trunc('day', now(), 'UTC') - make_interval(days => d) - interval '1 millisecond'
           FROM generate_series(1, 5) d
           UNION ALL
           SELECT 200000 + d, date_trunc('day', now(), 'UTC') - make_interval(days => d) FROM generate_series(1, 5) d) s`,
    [account, sources.rows.map((row) => row.id)],
  );
  await db.query(
    `INSERT INTO webhook_replays (source_id, signature, accepted_at)
     SELECT ($1::uuid[])[1 + n % 2], md5(n::text), now() - n * interval '7 minutes' FROM generate_series(1, 400) n`,
    [sources.rows.map((row) => row.id)],
  );
  await db.query(
    `INSERT INTO idempotency_keys (api_key_id, key, fingerprint, status, body, headers, created_at, completed_at)
     SELECT $1, 'key-' || n, md5(n::text), CASE WHEN n % 4 > 0 THEN 201 END, CASE WHEN n % 4 > 0 THEN '{}' END,
       '{"content-type":"application/json"}', now() - n * interval '13 minutes', now() - n * interval '13 minutes'
     FROM generate_series(1, 200) n`,
    [key.rows[0].id],
  );
});
afterAll(() => before?.drop());

const checksum = async (table: string, columns: string, order: string) =>
  (
    await before.client.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, md5(string_agg(row(${columns})::text, ',' ORDER BY ${order})) AS sum FROM ${table}`,
    )
  ).rows[0];

describe("migration webhook_logs_daily_partitions", () => {
  it("migrates a populated database without losing a row, each row in its day's partition", async () => {
    const tables = [
      ["webhook_deliveries", DELIVERY_COLUMNS, "id"],
      ["webhook_replays", REPLAY_COLUMNS, "source_id, signature"],
      ["idempotency_keys", IDEMPOTENCY_COLUMNS, "api_key_id, key"],
    ] as const;
    const sums = await Promise.all(tables.map(([table, columns, order]) => checksum(table, columns, order)));
    expect(sums.map((sum) => sum.n)).toEqual([DAYS * PER_DAY + 1 + 10, 400, 200]);

    await before.migrate();

    for (const [index, [table, columns, order]] of tables.entries())
      expect(await checksum(table, columns, order), table).toEqual(sums[index]);
    const misplaced = await before.client.query<{ table: string; n: number }>(
      `SELECT 'webhook_deliveries' AS table, count(*)::int AS n FROM webhook_deliveries
         WHERE tableoid::regclass::text <> 'webhook_deliveries_p' || to_char(received_at AT TIME ZONE 'UTC', 'YYYYMMDD')
       UNION ALL SELECT 'webhook_replays', count(*)::int FROM webhook_replays
         WHERE tableoid::regclass::text <> 'webhook_replays_p' || to_char(signed_at AT TIME ZONE 'UTC', 'YYYYMMDD')
       UNION ALL SELECT 'idempotency_keys', count(*)::int FROM idempotency_keys
         WHERE tableoid::regclass::text <> 'idempotency_keys_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD')`,
    );
    expect(misplaced.rows.map((row) => row.n)).toEqual([0, 0, 0]);
    const keyed = await before.client.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM webhook_replays r JOIN webhook_sources s ON (s.account_id, s.id) = (r.account_id,
         r.source_id)) + (SELECT count(*) FROM idempotency_keys i JOIN api_keys k ON (k.account_id, k.id) =
         (i.account_id, i.api_key_id)))::int AS n`,
    );
    expect(keyed.rows[0].n).toBe(600);
    // Partitions from the oldest row's day to a week ahead.
    const days = await before.client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'webhook_deliveries'::regclass",
    );
    expect(days.rows[0].n).toBe(DAYS + 1 + 7);
  });

  it("still removes a deleted source's log and replay records with it", async () => {
    const { rows } = await before.client.query<{ id: string }>(
      "SELECT id FROM webhook_sources ORDER BY public_id LIMIT 1",
    );
    await before.client.query("DELETE FROM webhook_sources WHERE id = $1", [rows[0].id]);
    const left = await before.client.query<{ deliveries: number; replays: number }>(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE source_id = $1)::int AS deliveries,
              (SELECT count(*) FROM webhook_replays WHERE source_id = $1)::int AS replays`,
      [rows[0].id],
    );
    expect(left.rows[0]).toEqual({ deliveries: 0, replays: 0 });
    const others = await before.client.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries");
    expect(others.rows[0].n).toBeGreaterThan(0);
  });
});
