import type pg from "pg";
import { encryptSecret, generateSecret } from "@/lib/platform/crypto/secrets";

/*
 * The Overview's share of the dashboard benchmark's account: three subscriptions (delivering, failing,
 * disabled) with 1,000,000 outbound attempts over the last 23 days, and the hourly counters of both logs
 * as the writers keep them (lib/events-webhook/ingest-sql.ts, lib/outbound/record.ts): the seed writes
 * the logs set-based, bypassing the writers, so it adds up their counters the way the migration does.
 */

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 1_000_000);
const SUBSCRIPTIONS = 3;
// Two attempts per delivery: a retry and the attempt that settled it.
const ATTEMPTS_PER_DELIVERY = 2;

export async function seedOverview(client: pg.Client, accountId: string): Promise<number> {
  const started = Date.now();
  const deliveries = Math.ceil(ATTEMPTS / ATTEMPTS_PER_DELIVERY);
  const messages = Math.ceil(deliveries / SUBSCRIPTIONS);
  // The outbound log is partitioned by UTC day: the seeded days need their partitions.
  await client.query(
    `SELECT create_daily_partitions(t::regclass, d - 30, d)
     FROM (SELECT (now() AT TIME ZONE 'UTC')::date AS d) today, unnest(ARRAY['outbound_messages', 'outbound_deliveries', 'outbound_attempts']) AS t`,
  );
  // Messages first: no subscription is active yet, so the fan-out trigger queues nothing for them.
  await client.query(
    `INSERT INTO outbound_messages (id, account_id, type, payload, created_at)
     SELECT 'whmsg_bench' || g, $1, 'event.updated', jsonb_build_object('id', 'whmsg_bench' || g),
            now() - g * interval '4 seconds'
     FROM generate_series(1, $2::int) AS g`,
    [accountId, messages],
  );
  for (let n = 1; n <= SUBSCRIPTIONS; n++)
    await client.query(
      `INSERT INTO webhook_subscriptions (id, account_id, url, event_types, secret_ciphertext, status, disabled_reason,
         disabled_at, failing_since, last_delivery_at, last_delivery_ok)
       VALUES ($1, $2, $3, '{*}', $4, $5::"SubscriptionStatus", $6, $7, $8, now(), $9)`,
      [
        `whsub_bench${n}`,
        accountId,
        `https://receiver-${n}.example/hooks`,
        encryptSecret(generateSecret()),
        n === 3 ? "disabled" : "active",
        n === 3 ? "The receiver answered 410 Gone." : null,
        n === 3 ? new Date() : null,
        n === 2 ? new Date(Date.now() - 2 * 3_600_000) : null,
        n === 1,
      ],
    );
  await client.query(
    `INSERT INTO outbound_deliveries (account_id, message_id, subscription_id, status, attempts, created_at, updated_at)
     SELECT m.account_id, m.id, 'whsub_bench' || s, 'succeeded', $2::int, m.created_at, m.created_at
     FROM outbound_messages m CROSS JOIN generate_series(1, ${SUBSCRIPTIONS}) AS s
     WHERE m.account_id = $1`,
    [accountId, ATTEMPTS_PER_DELIVERY],
  );
  await client.query(
    `INSERT INTO outbound_attempts (account_id, delivery_id, delivery_created_at, subscription_id, attempt,
       attempted_at, status_code, duration_ms, error, outcome)
     SELECT d.account_id, d.id, d.created_at, d.subscription_id, a, d.created_at + a * interval '1 second',
            CASE WHEN a = 1 OR d.subscription_id = 'whsub_bench2' THEN 500 ELSE 204 END, 40,
            CASE WHEN a = 1 OR d.subscription_id = 'whsub_bench2' THEN 'The receiver answered 500.' END,
            CASE WHEN a = 1 THEN 'retry' WHEN d.subscription_id = 'whsub_bench2' THEN 'failed' ELSE 'succeeded' END
     FROM outbound_deliveries d CROSS JOIN generate_series(1, ${ATTEMPTS_PER_DELIVERY}) AS a
     WHERE d.subscription_id LIKE 'whsub_bench%'`,
  );
  await client.query(
    `INSERT INTO webhook_delivery_hours (account_id, hour, source_id, outcome, deliveries)
     SELECT account_id, date_trunc('hour', received_at, 'UTC'), source_id, COALESCE(error_code, 'ok'), count(*)
     FROM webhook_deliveries WHERE account_id = $1 GROUP BY 1, 2, 3, 4`,
    [accountId],
  );
  await client.query(
    `INSERT INTO outbound_attempt_hours (account_id, hour, subscription_id, outcome, attempts)
     SELECT $1, date_trunc('hour', attempted_at, 'UTC'), subscription_id, outcome, count(*)
     FROM outbound_attempts WHERE subscription_id LIKE 'whsub_bench%' GROUP BY 2, 3, 4`,
    [accountId],
  );
  await client.query("ANALYZE");
  const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM outbound_attempts");
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `▸ Seeded ${rows[0].n.toLocaleString("en-US")} outbound attempts and the hourly counters in ${seconds} s`,
  );
  return rows[0].n;
}
