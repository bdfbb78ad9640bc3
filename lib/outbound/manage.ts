import "server-only";
import { db } from "@/lib/platform/db/client";
import { param, sql, type Sql } from "@/lib/platform/db/sql";
import { isPublicId, isUuid } from "@/lib/platform/ids";
import { logSearch, logWindow, type LogFilterInput } from "@/lib/platform/log-filter";
import { logSearchCondition } from "@/lib/platform/log-search";
import {
  emptyPage,
  encodeCursor,
  keysetPage,
  keysetQuery,
  tryDecodeCursor,
  type KeyPart,
  type Page,
} from "@/lib/platform/pagination/keyset";
import { QUEUED_CHANNEL } from "./queue";
import { OUTBOUND_RETENTION_DAYS } from "./retention";
import { emitMessagesCte } from "./sql";

/*
 * What the dashboard and the API do with deliveries (docs/outbound-webhooks.md, "Delivery"): resend one,
 * replay a subscription's notifications since a time, send a test notification, and list the attempts
 * newest first. Every function is scoped by account: an id of another account finds nothing.
 */

const validSubscription = (accountId: string, subscriptionId: string) =>
  isUuid(accountId) && isPublicId(subscriptionId, "subscription");

// Back to pending with a fresh attempt count, and into the queue now (a delivery still queued is due now).
// A subscription whose circuit is open is probed now rather than at the end of its pause: the delivery
// waits behind the circuit like the others, and the probe's success lets them all flow.
const REQUEUE = (deliveries: string) => `chosen AS (${deliveries}),
  requeued AS (
    UPDATE outbound_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
    FROM chosen WHERE d.id = chosen.id AND d.created_at = chosen.created_at AND d.account_id = chosen.account_id
      AND NOT (d.status = 'pending' AND d.attempts = 0) RETURNING d.id),
  ${QUEUE_NOW("chosen")}
  SELECT (SELECT count(*) FROM chosen)::int AS count, (SELECT count(*) FROM queued)::int AS queued,
    (SELECT count(*) FROM woken)::int AS woken`;

/**
 * CTEs that put the deliveries of `source` (id, account_id, subscription_id, created_at) into the queue, due
 * now, probe their subscriptions' open circuits now, and wake the workers (queue.ts).
 */
const QUEUE_NOW = (source: string) => `queued AS (
    INSERT INTO outbound_queue (account_id, delivery_id, subscription_id, delivery_created_at)
    SELECT account_id, id, subscription_id, created_at FROM ${source}
    ON CONFLICT (account_id, delivery_id) DO UPDATE SET run_at = now() WHERE outbound_queue.locked_at IS NULL
    RETURNING 1),
  probed AS (
    UPDATE outbound_circuits c SET paused_until = now()
    FROM (SELECT DISTINCT account_id, subscription_id FROM ${source}) x
    WHERE c.account_id = x.account_id AND c.subscription_id = x.subscription_id AND c.probe_delivery_id IS NULL
      AND c.paused_until > now()),
  woken AS (SELECT pg_notify('${QUEUED_CHANNEL}', '') FROM (SELECT 1 FROM queued LIMIT 1) q)`;

/** Delivers the notification again (e.g. "Resend" on a failed one); false when there is no such delivery. */
export async function resendDelivery(accountId: string, deliveryId: string): Promise<boolean> {
  if (!isUuid(accountId) || !isUuid(deliveryId)) return false;
  const { rows } = await db.pool.query<{ count: number }>(
    `WITH ${REQUEUE(`SELECT d.id, d.account_id, d.subscription_id, d.created_at
       FROM outbound_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.id = $2::uuid AND d.account_id = $1::uuid AND s.account_id = $1::uuid AND s.status = 'active'
         AND d.created_at >= now() - make_interval(days => $3::int)`)}`,
    [accountId, deliveryId, OUTBOUND_RETENTION_DAYS],
  );
  return rows[0].count === 1;
}

/**
 * "Replay since…": queues again every delivery to the subscription created at or after `since` (within
 * the 30 days kept), succeeded ones included: receivers de-duplicate by webhook-id. Returns how many.
 */
export async function replaySince(accountId: string, subscriptionId: string, since: Date): Promise<number> {
  if (!validSubscription(accountId, subscriptionId) || Number.isNaN(since.getTime())) return 0;
  const { rows } = await db.pool.query<{ count: number }>(
    `WITH ${REQUEUE(`SELECT d.id, d.account_id, d.subscription_id, d.created_at
       FROM outbound_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.subscription_id = $2::text AND d.account_id = $1::uuid AND s.account_id = $1::uuid
         AND s.status = 'active' AND d.created_at >= $3::timestamptz`)}`,
    [accountId, subscriptionId, since.toISOString()],
  );
  return rows[0].count;
}

/**
 * A "test" notification to this one subscription (the fan-out trigger leaves "test" messages alone),
 * delivered like any other. Returns the message id, or null when there is no such active subscription.
 */
export async function sendTestNotification(accountId: string, subscriptionId: string): Promise<string | null> {
  if (!validSubscription(accountId, subscriptionId)) return null;
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH sub AS (SELECT id, account_id FROM webhook_subscriptions WHERE id = $2::text AND account_id = $1::uuid
      AND status = 'active'),
     ${emitMessagesCte(
       "notified",
       `SELECT account_id, 'test' AS type, jsonb_build_object('subscription_id', id, 'message',
         'A test notification sent from the dashboard.') AS data FROM sub`,
     )},
     -- The delivery takes its message's account and time (its day partition, as the relay's do).
     delivery AS (INSERT INTO outbound_deliveries (account_id, message_id, subscription_id, created_at,
       next_attempt_at)
       SELECT $1::uuid, notified.id, $2::text, notified.created_at, now() FROM notified
       RETURNING id, account_id, subscription_id, created_at),
     ${QUEUE_NOW("delivery")}
     SELECT notified.id FROM notified, (SELECT count(*) FROM queued) q, (SELECT count(*) FROM woken) w`,
    [accountId, subscriptionId],
  );
  return rows[0]?.id ?? null;
}

export type DeliveryAttempt = {
  id: string;
  deliveryId: string;
  messageId: string;
  type: string;
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string;
  error: string | null;
  outcome: string;
  deliveryStatus: "pending" | "succeeded" | "failed";
  nextAttemptAt: Date | null;
  /** The body every attempt of the delivery sends (the notification, byte for byte). */
  payload: string;
};

const CURSOR_TAG = "outbound-attempts";
/** The keyset: newest first on the index (subscription_id, attempted_at, id), read backwards. */
const KEY: { columns: string[]; parts: KeyPart[] } = {
  columns: ["a.attempted_at", "a.id"],
  parts: ["timestamptz", "uuid"],
};

/** `search`: the event type or message id contains it, or the status code is it; `from`/`to`: log-filter.ts. */
export type ListAttemptsOptions = LogFilterInput & { limit?: number; cursor?: string | null };

/*
 * No index serves a substring: the search filters the subscription's attempts inside the window the index
 * walk covers (a date range bounds it), stopping once a page is full. Indexing the type or message id
 * here would cost every attempt the workers write, for a search people run now and then.
 */
const searchCondition = (search: string): Sql =>
  logSearchCondition(search, { text: [sql`m.type`, sql`d.message_id`], status: sql`a.status_code` });

/** The subscription's attempts, newest first, keyset-paged (the dashboard's "Delivery attempts" table). */
export async function listDeliveryAttempts(
  accountId: string,
  subscriptionId: string,
  options: ListAttemptsOptions = {},
): Promise<Page<DeliveryAttempt>> {
  if (!validSubscription(accountId, subscriptionId)) return emptyPage();
  const limit = pageLimit(options);
  const query = deliveryAttemptsQuery(accountId, subscriptionId, options);
  const { rows } = await db.replica.query(query.text, query.values);
  const attempts = rows.map((row): DeliveryAttempt => ({
    id: row.id,
    deliveryId: row.delivery_id,
    messageId: row.message_id,
    type: row.type,
    attempt: row.attempt,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    responseExcerpt: row.response_excerpt,
    error: row.error,
    outcome: row.outcome,
    deliveryStatus: row.delivery_status,
    nextAttemptAt: row.next_attempt_at,
    payload: row.payload,
  }));
  return keysetPage(attempts, limit, (last) => encodeCursor(CURSOR_TAG, [last.attemptedAt, last.id]));
}

const pageLimit = (options: ListAttemptsOptions) => Math.min(Math.max(Math.trunc(options.limit ?? 25), 1), 100);

/** The statement of a page of listDeliveryAttempts (its plan is checked to read only the days in range). */
export function deliveryAttemptsQuery(accountId: string, subscriptionId: string, options: ListAttemptsOptions): Sql {
  const limit = pageLimit(options);
  const cursor = tryDecodeCursor(options.cursor, CURSOR_TAG, KEY.parts);
  const subscription = param(subscriptionId, "text");
  const account = param(accountId, "uuid");
  const where = [
    sql`a.subscription_id = ${subscription}`,
    sql`a.account_id = ${account}`,
    sql`EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = ${subscription} AND s.account_id = ${account})`,
  ];
  // Plain bounds on the partition column, so the planner reads only the days in range (row comparisons such
  // as the keyset's do not prune): at most the days kept, then the date range, and the cursor's time.
  const window = logWindow(options);
  const kept = new Date(Date.now() - OUTBOUND_RETENTION_DAYS * 86_400_000);
  const since = window.since && window.since > kept ? window.since : kept;
  where.push(sql`a.attempted_at >= ${param(since.toISOString(), "timestamptz")}`);
  if (window.until) where.push(sql`a.attempted_at < ${param(window.until.toISOString(), "timestamptz")}`);
  if (cursor) where.push(sql`a.attempted_at <= ${param(cursor[0], "timestamptz")}`);
  const search = logSearch(options.search);
  if (search) where.push(searchCondition(search));
  return keysetQuery({
    select: sql`SELECT a.id, a.delivery_id, d.message_id, m.type, a.attempt, a.attempted_at, a.status_code,
      a.duration_ms, a.response_excerpt, a.error, a.outcome, d.status::text AS delivery_status, d.next_attempt_at,
      m.payload::text AS payload
     FROM outbound_attempts a
     -- Each attempt's delivery and message by their whole key, so each lookup reads one day's partition
     -- (OFFSET 0 keeps it a lookup: on small or stale statistics the planner read every day of the messages).
     CROSS JOIN LATERAL (SELECT d.message_id, d.status, d.next_attempt_at, d.created_at, d.account_id
       FROM outbound_deliveries d WHERE d.id = a.delivery_id AND d.created_at = a.delivery_created_at
         AND d.account_id = a.account_id OFFSET 0) d
     CROSS JOIN LATERAL (SELECT m.type, m.payload FROM outbound_messages m
       WHERE m.id = d.message_id AND m.created_at = d.created_at AND m.account_id = d.account_id OFFSET 0) m`,
    where,
    ...KEY,
    cursor,
    direction: "descending",
    limit,
  });
}
