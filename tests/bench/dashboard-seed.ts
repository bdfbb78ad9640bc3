import type pg from "pg";
import { deliveryCursor } from "@/lib/events-webhook/deliveries";
import { newPublicId } from "@/lib/platform/ids";
import { encryptSecret, generateSecret } from "@/lib/platform/crypto/secrets";

export type Seeded = {
  userId: string;
  accountId: string;
  sourceId: string;
  deepCursor: string;
  deliveries: number;
  events: number;
};

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const PAGE_SIZE = 25;
const DEEP_PAGE = 500;

/** One large account, seeded with set-based SQL (seconds, not minutes). */
export async function seedDashboard(client: pg.Client): Promise<Seeded> {
  const started = Date.now();
  const user = await client.query<{ id: string }>(
    "INSERT INTO users (email, name, password_hash) VALUES ('bench@example.test', 'Bench', 'x') RETURNING id",
  );
  const account = await client.query<{ id: string }>(
    "INSERT INTO accounts (name, plan, timezone) VALUES ('Benchmark', 'pro', 'Europe/Berlin') RETURNING id",
  );
  const [userId, accountId] = [user.rows[0].id, account.rows[0].id];
  await client.query("INSERT INTO memberships (user_id, account_id, role) VALUES ($1, $2, 'owner')", [
    userId,
    accountId,
  ]);
  const source = await client.query<{ id: string }>(
    "INSERT INTO webhook_sources (account_id, public_id, name, " +
      "secret_ciphertext) VALUES ($1, $2, 'CRM', $3) RETURNING id",
    [accountId, newPublicId("source"), encryptSecret(generateSecret())],
  );
  const sourceId = source.rows[0].id;

  await client.query(
    `INSERT INTO events (account_id, title, starts_at, starts_at_offset, location, description, price, status)
     SELECT $1, (ARRAY['Conference','Workshop','Meetup','Concert','Webinar'])[g % 5 + 1] || ' ' || g,
            now() - interval '180 days' + g * interval '4 minutes', '+01:00',
            (ARRAY['Berlin','Paris','Online','Rome','Madrid','Vienna'])[g % 6 + 1], 'Seeded event number ' || g, '€'
              || (g % 50),
            CASE WHEN g % 10 = 0 THEN 'cancelled'::"EventStatus" ELSE 'upcoming'::"EventStatus" END
     FROM generate_series(1, $2::int) AS g`,
    [accountId, EVENTS],
  );
  // 1,000,000 rows over the last 23 days (one every 2 s), so all are inside the 30-day window. The log is
  // partitioned by UTC day: the seeded days need their partitions.
  await client.query(
    "SELECT create_daily_partitions('webhook_deliveries', d - 24, d) FROM (SELECT (now() AT TIME ZONE 'UTC')::date) t(d)",
  );
  await client.query(
    `INSERT INTO webhook_deliveries (account_id, source_id, received_at, action, status, event_title, error_code,
      latency_ms, body, body_bytes, headers)
     SELECT $1, $2, now() - g * interval '2 seconds', (ARRAY['upsert','upsert','upsert','cancel','delete'])[g % 5 + 1],
            CASE WHEN g % 50 = 0 THEN 401 WHEN g % 97 = 0 THEN 429 ELSE 200 END, 'Event ' || (g % 10000),
            CASE WHEN g % 50 = 0 THEN 'invalid_signature' WHEN g % 97 = 0 THEN 'rate_limited' END, 3 + g % 40,
            '{"action":"upsert","event":{"title":"Event ' || (g % 10000) || '","starts_at":"2026-05-01T10:00:00Z"}}',
              80,
            jsonb_build_object('content_type', 'application/json', 'user_agent', 'bench', 'content_length', '80',
              'timestamp', '1767225600', 'signature_present', true, 'signature_valid', true)
     FROM generate_series(1, $3::int) AS g`,
    [accountId, sourceId, DELIVERIES],
  );
  await client.query("ANALYZE");

  const deep = await client.query<{ received_at: Date; id: string }>(
    "SELECT received_at, id FROM webhook_deliveries WHERE source_id = $1 " +
      "ORDER BY received_at DESC, id DESC OFFSET $2 LIMIT 1",
    [sourceId, PAGE_SIZE * DEEP_PAGE - 1],
  );
  const row = deep.rows[0];
  const deepCursor = deliveryCursor(row);
  console.log(
    `▸ Seeded ${DELIVERIES.toLocaleString("en-US")} deliveries and ` +
      `${EVENTS.toLocaleString("en-US")} events in ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { userId, accountId, sourceId, deepCursor, deliveries: DELIVERIES, events: EVENTS };
}
