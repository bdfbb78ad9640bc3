import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { deliveryAttemptsQuery } from "@/lib/outbound/manage";
import { databaseBefore, type DatabaseBefore } from "../support/migrate-to";
import { deliveries, notify, subscribedAccount } from "./outbound/support";

/*
 * The outbound log partitioned by UTC day (migration outbound_daily_partitions, docs/scaling.md): a populated
 * database keeps every row, each in its day's partition; and the dashboard's Delivery attempts list reads
 * only the days it needs.
 */

const MIGRATION = "20261127021500_outbound_daily_partitions";
const DAY_MS = 86_400_000;
const utcDay = (date: Date) => date.toISOString().slice(0, 10).replaceAll("-", "");

describe("converting the outbound tables to day partitions", () => {
  let before: DatabaseBefore | undefined;
  afterAll(() => before?.drop());

  it("keeps every row of a populated database, each in its UTC day's partition", async () => {
    before = await databaseBefore(MIGRATION);
    const { client } = before;
    // Two accounts, a subscription each (the fan-out trigger queues their messages), and six days of
    // messages, deliveries (created a second after their message) and attempts (a minute later, and a
    // retry the next day for some).
    await client.query(
      `INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A'),
         ('00000000-0000-4000-8000-00000000000b', 'B');
       INSERT INTO webhook_subscriptions (id, account_id, url, event_types, secret_ciphertext)
       VALUES ('whsub_a', '00000000-0000-4000-8000-00000000000a', 'https://a.example/', '{*}', 'x'),
              ('whsub_b', '00000000-0000-4000-8000-00000000000b', 'https://b.example/', '{lead.*}', 'x');
       INSERT INTO outbound_messages (id, account_id, type, payload, created_at)
       SELECT 'whmsg_' || n, CASE WHEN n % 3 = 0 THEN '00000000-0000-4000-8000-00000000000b'::uuid
                                  ELSE '00000000-0000-4000-8000-00000000000a'::uuid END,
              CASE WHEN n % 2 = 0 THEN 'lead.created' ELSE 'event.updated' END, jsonb_build_object('n', n),
              date_trunc('day', now(), 'UTC') - (n % 6) * interval '1 day' + n * interval '7 minutes'
       FROM generate_series(1, 120) n;
       INSERT INTO outbound_deliveries (message_id, subscription_id, status, attempts, next_attempt_at, created_at)
       SELECT m.id, s.id, 'succeeded', 1, NULL, m.created_at + interval '1 second'
       FROM outbound_messages m JOIN webhook_subscriptions s ON s.account_id = m.account_id
       WHERE m.type = 'lead.created' OR s.id = 'whsub_a';
       INSERT INTO outbound_attempts (delivery_id, subscription_id, attempt, attempted_at, status_code, duration_ms,
         response_excerpt, outcome)
       SELECT d.id, d.subscription_id, a, d.created_at + (a - 1) * interval '1 day' + interval '1 minute',
              CASE WHEN a = 1 AND d.attempts % 2 = 0 THEN 500 ELSE 204 END, 30, 'ok ' || d.message_id, 'succeeded'
       FROM outbound_deliveries d CROSS JOIN generate_series(1, 2) a
       WHERE a = 1 OR right(d.message_id, 1) IN ('1', '5');`,
    );
    const snapshot = async () =>
      (
        await client.query(
          `SELECT (SELECT count(*) FROM outbound_messages)::int AS messages,
            (SELECT count(*) FROM outbound_deliveries)::int AS deliveries,
            (SELECT count(*) FROM outbound_attempts)::int AS attempts,
            (SELECT count(*) FROM outbound_fan_outs)::int AS fan_outs,
            (SELECT md5(string_agg(concat_ws('|', id, account_id, type, payload, created_at), ',' ORDER BY id))
               FROM outbound_messages) AS messages_digest,
            (SELECT md5(string_agg(concat_ws('|', id, message_id, subscription_id, status, attempts), ',' ORDER BY id))
               FROM outbound_deliveries) AS deliveries_digest,
            (SELECT md5(string_agg(concat_ws('|', id, delivery_id, attempt, attempted_at, status_code, response_excerpt), ','
               ORDER BY id)) FROM outbound_attempts) AS attempts_digest,
            (SELECT md5(string_agg(message_id, ',' ORDER BY id)) FROM outbound_fan_outs) AS fan_outs_digest`,
        )
      ).rows[0];
    const was = await snapshot();
    expect(was).toMatchObject({ messages: 120, deliveries: 80 + 20, fan_outs: 80 + 20 });
    expect(was.attempts).toBeGreaterThan(was.deliveries);

    await before.migrate();

    expect(await snapshot()).toEqual(was);
    const { rows: misplaced } = await client.query(
      `SELECT 'message' AS kind, id::text FROM outbound_messages
         WHERE tableoid::regclass::text <> 'outbound_messages_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD')
       UNION ALL SELECT 'delivery', id::text FROM outbound_deliveries
         WHERE tableoid::regclass::text <> 'outbound_deliveries_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD')
       UNION ALL SELECT 'attempt', id::text FROM outbound_attempts
         WHERE tableoid::regclass::text <> 'outbound_attempts_p' || to_char(attempted_at AT TIME ZONE 'UTC', 'YYYYMMDD')`,
    );
    expect(misplaced).toEqual([]);
    // Every row names its account and its parent's key; a delivery sits in its message's day.
    const { rows: unlinked } = await client.query(
      `SELECT count(*)::int AS n FROM outbound_deliveries d LEFT JOIN outbound_messages m
         ON m.id = d.message_id AND m.created_at = d.created_at AND m.account_id = d.account_id WHERE m.id IS NULL
       UNION ALL SELECT count(*)::int FROM outbound_attempts a LEFT JOIN outbound_deliveries d
         ON d.id = a.delivery_id AND d.created_at = a.delivery_created_at AND d.account_id = a.account_id
         WHERE d.id IS NULL
       UNION ALL SELECT count(*)::int FROM outbound_fan_outs f LEFT JOIN outbound_messages m
         ON m.id = f.message_id AND m.created_at = f.message_created_at AND m.account_id = f.account_id
         WHERE m.id IS NULL`,
    );
    expect(unlinked.map((row) => row.n)).toEqual([0, 0, 0]);
    // The days with rows, and yesterday to a week ahead: six days back for messages and deliveries; for attempts
    // all but three days back (that day's messages are account B's event.updated, which its subscription skips).
    const { rows: days } = await client.query(
      `SELECT c.relname, count(*)::int AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhparent
       WHERE c.relname IN ('outbound_messages', 'outbound_deliveries', 'outbound_attempts')
       GROUP BY c.relname ORDER BY c.relname`,
    );
    expect(days).toEqual([
      { relname: "outbound_attempts", n: 6 + 7 - 1 },
      { relname: "outbound_deliveries", n: 6 + 7 },
      { relname: "outbound_messages", n: 6 + 7 },
    ]);
    // The fan-out trigger still queues new messages, with their account and time.
    await client.query(
      `INSERT INTO outbound_messages (id, account_id, type, payload)
       VALUES ('whmsg_new', '00000000-0000-4000-8000-00000000000b', 'lead.updated', '{}')`,
    );
    const { rows: queued } = await client.query(
      "SELECT account_id, message_created_at IS NOT NULL AS timed FROM outbound_fan_outs WHERE message_id = 'whmsg_new'",
    );
    expect(queued).toEqual([{ account_id: "00000000-0000-4000-8000-00000000000b", timed: true }]);
  });
});

describe("the Delivery attempts list", () => {
  type PlanNode = { "Relation Name"?: string; "Actual Loops"?: number; Plans?: PlanNode[] };
  const scanned = (node: PlanNode, parent: string, executedOnly: boolean): string[] => [
    ...(node["Relation Name"]?.startsWith(`${parent}_p`) && (!executedOnly || (node["Actual Loops"] ?? 0) > 0)
      ? [node["Relation Name"]]
      : []),
    ...(node.Plans ?? []).flatMap((child) => scanned(child, parent, executedOnly)),
  ];

  it("reads only the days of its date range, and of each attempt's delivery and message only its day", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    await notify(accountId);
    expect(await deliveries(subscriptionId)).toHaveLength(1);
    // An attempt four days back and one today, of the same delivery.
    const { rows } = await db.pool.query(
      `WITH d AS (SELECT d.id, d.account_id, d.created_at FROM outbound_deliveries d WHERE d.subscription_id = $1)
       INSERT INTO outbound_attempts (account_id, delivery_id, delivery_created_at, subscription_id, attempt,
         attempted_at, status_code, duration_ms, outcome)
       SELECT d.account_id, d.id, d.created_at, $1, a, now() - (2 - a) * interval '4 days', 500, 10, 'retry'
       FROM d CROSS JOIN generate_series(1, 2) a RETURNING attempted_at`,
      [subscriptionId],
    );
    expect(rows).toHaveLength(2);
    const from = new Date(Date.now() - 5 * DAY_MS);
    const to = new Date(Date.now() - 3 * DAY_MS);
    const query = deliveryAttemptsQuery(accountId, subscriptionId, {
      from: from.toISOString().slice(0, 10),
      to: to.toISOString().slice(0, 10),
      timeZone: "UTC",
      limit: 20,
    });
    const { rows: plan } = await db.pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values);
    const root = plan[0]["QUERY PLAN"][0].Plan as PlanNode;
    const days = [5, 4, 3].map((back) => `outbound_attempts_p${utcDay(new Date(Date.now() - back * DAY_MS))}`);
    expect(scanned(root, "outbound_attempts", false).sort()).toEqual(days);
    const today = utcDay(new Date());
    expect(scanned(root, "outbound_deliveries", true)).toEqual([`outbound_deliveries_p${today}`]);
    expect(scanned(root, "outbound_messages", true)).toEqual([`outbound_messages_p${today}`]);

    // Without a date range: the 30 days kept, not the older days nor the whole table.
    const all = deliveryAttemptsQuery(accountId, subscriptionId, { limit: 20 });
    const { rows: allPlan } = await db.pool.query(`EXPLAIN (FORMAT JSON) ${all.text}`, all.values);
    const kept = scanned(allPlan[0]["QUERY PLAN"][0].Plan as PlanNode, "outbound_attempts", false);
    expect(kept).not.toContain(`outbound_attempts_p${utcDay(new Date(Date.now() - 32 * DAY_MS))}`);
    expect(kept).toContain(`outbound_attempts_p${utcDay(new Date(Date.now() - 29 * DAY_MS))}`);
  });
});

describe("integrity without foreign keys between the three", () => {
  it("deletes a subscription's deliveries and attempts with it, and an account's notifications with it", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    await notify(accountId);
    const [delivery] = await deliveries(subscriptionId);
    await db.pool.query(
      `INSERT INTO outbound_attempts (account_id, delivery_id, delivery_created_at, subscription_id, attempt,
         status_code, duration_ms, outcome)
       VALUES ($1, $2, $3, $4, 1, 500, 10, 'retry')`,
      [accountId, delivery.id, delivery.created_at, subscriptionId],
    );
    const left = async () =>
      (
        await db.pool.query(
          `SELECT (SELECT count(*) FROM outbound_messages WHERE account_id = $1)::int AS messages,
             (SELECT count(*) FROM outbound_deliveries WHERE subscription_id = $2)::int AS deliveries,
             (SELECT count(*) FROM outbound_attempts WHERE subscription_id = $2)::int AS attempts`,
          [accountId, subscriptionId],
        )
      ).rows[0];
    expect(await left()).toEqual({ messages: 1, deliveries: 1, attempts: 1 });
    await db.pool.query("DELETE FROM webhook_subscriptions WHERE account_id = $1 AND id = $2", [
      accountId,
      subscriptionId,
    ]);
    expect(await left()).toEqual({ messages: 1, deliveries: 0, attempts: 0 });
    await db.pool.query("DELETE FROM accounts WHERE id = $1", [accountId]);
    expect(await left()).toEqual({ messages: 0, deliveries: 0, attempts: 0 });
  });
});
