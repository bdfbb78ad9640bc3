import "server-only";
import type pg from "pg";
import { coalescing } from "./coalesce";

/*
 * Recording attempts (docs/outbound-webhooks.md, "Delivery"): the attempts that finished while the
 * previous record statement ran are recorded together by the next one (coalesce.ts), so under load a
 * statement records many attempts, and idle it records one at once.
 *
 * Per attempt, in one statement: the attempt row; the delivery's state (succeeded, pending with its next
 * attempt, or failed); its queue row and its subscription's circuit (below). Per subscription, after its
 * latest attempt in the batch: last delivery, last error, and failing_since (set by the first failure of
 * a run, cleared by a success), returned for the 5-day rule; and the hourly counters of attempts by outcome
 * (outbound_attempt_hours, the dashboard's Overview). A success that changes nothing but
 * last_delivery_at skips the write when that is under a second old: every delivery of a subscription
 * would otherwise queue on its one row. Subscriptions are locked in id order, so two workers recording
 * attempts of the same subscriptions cannot deadlock, and FOR NO KEY UPDATE (what the UPDATE itself
 * takes): FOR UPDATE would also wait for, and hold up, every writer whose new delivery's foreign key
 * share-locks the subscription row.
 */

export type AttemptOutcome = "succeeded" | "retry" | "failed" | "disabled";

export type AttemptRecord = {
  deliveryId: string;
  /** The delivery's created_at: with the id, its key, naming the one day partition that holds it. */
  deliveryCreatedAt: Date;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  excerpt: string;
  /** The failure in words, for the attempt log (null on success). */
  error: string | null;
  outcome: AttemptOutcome;
  /** Milliseconds until the next attempt, for a retry. */
  delayMs: number | null;
  /** How long a failure (or a 410, while the subscription is disabled) holds its circuit; null for a success. */
  pauseMs: number | null;
  accountId: string;
  subscriptionId: string;
  /** The subscription's last error if this attempt is its latest. */
  summary: string;
};

/** Records an attempt once committed; answers the subscription's failing_since (null when not failing). */
export type Recorder = (record: AttemptRecord) => Promise<Date | null>;

/** Attempts recorded by one statement at most (the arrays of its parameters). */
const MAX_BATCH = 200;
/**
 * After a record statement, the next waits this long for more attempts (under load only): a statement
 * costs a fixed part too, so a short wait that gathers a larger batch costs less per attempt
 * (docs/outbound-webhooks.md, "Tuning").
 */
const RECORD_LINGER_MS = 15;

/*
 * The queue and the circuit after the batch's attempts (docs/outbound-webhooks.md, "Answers, retries and
 * disabling"), read from locked so that they are written once the batch's subscriptions are locked. An
 * attempted delivery leaves the queue once done; a retry is parked behind its subscription's circuit. Per
 * subscription, its latest attempt in the batch decides: a success closes the circuit and lets its parked
 * rows flow again in queue order, spread at DRAIN_PER_SECOND so that a backlog shares the workers with every
 * other subscription's deliveries instead of going ahead of them all; a failure opens the circuit (parking
 * the subscription's due rows), or, when it is the probe's, pauses it again for the schedule's next step. A
 * failure of an attempt that started before the circuit opened changes nothing more. A 410 holds the
 * circuit too, so that nothing more is sent while the subscription is being disabled (deliver.ts, after
 * this commit); the circuit tick then fails what waits.
 */
const DRAIN_PER_SECOND = 1_000;
const QUEUE_AND_CIRCUIT = `dequeued AS (
    DELETE FROM outbound_queue q USING input i, locked k
    WHERE k.id = i.subscription_id AND q.account_id = i.account_id AND q.delivery_id = i.delivery_id
      AND i.outcome <> 'retry'),
  requeued AS (
    UPDATE outbound_queue q SET locked_by = NULL, locked_at = NULL,
      run_at = CASE WHEN k.outcome = 'succeeded' THEN now() ELSE 'infinity' END
    FROM input i, locked k
    WHERE k.id = i.subscription_id AND q.account_id = i.account_id AND q.delivery_id = i.delivery_id
      AND i.outcome = 'retry'),
  closed AS (
    DELETE FROM outbound_circuits c USING locked k
    WHERE k.outcome = 'succeeded' AND c.account_id = k.account_id AND c.subscription_id = k.id
    RETURNING c.account_id, c.subscription_id),
  drained AS (
    UPDATE outbound_queue q SET run_at = now() + x.n * interval '1 millisecond' * ${1000 / DRAIN_PER_SECOND}
    FROM (SELECT b.account_id, b.delivery_id,
            row_number() OVER (PARTITION BY b.account_id, b.subscription_id ORDER BY b.seq) - 1 AS n
          FROM closed c JOIN outbound_queue b ON b.account_id = c.account_id AND b.subscription_id = c.subscription_id
          WHERE b.run_at = 'infinity') x
    WHERE q.account_id = x.account_id AND q.delivery_id = x.delivery_id),
  reopened AS (
    UPDATE outbound_circuits c SET failures = c.failures + 1, paused_until = now() + COALESCE(k.pause_ms, 0) * interval
      '1 millisecond', probe_delivery_id = NULL, probe_started_at = NULL
    FROM locked k
    WHERE c.account_id = k.account_id AND c.subscription_id = k.id
      AND (k.outcome = 'disabled' OR k.outcome IN ('retry', 'failed') AND EXISTS (SELECT 1 FROM input i
        WHERE i.subscription_id = k.id AND i.delivery_id = c.probe_delivery_id AND i.outcome IN ('retry', 'failed')))),
  opened AS (
    INSERT INTO outbound_circuits (account_id, subscription_id, paused_until)
    SELECT k.account_id, k.id, now() + COALESCE(k.pause_ms, 0) * interval '1 millisecond' FROM locked k
    WHERE k.outcome IN ('retry', 'failed', 'disabled')
    ON CONFLICT (account_id, subscription_id) DO NOTHING
    RETURNING account_id, subscription_id),
  parked AS (
    UPDATE outbound_queue q SET run_at = 'infinity' FROM opened o
    WHERE q.account_id = o.account_id AND q.subscription_id = o.subscription_id AND q.locked_at IS NULL
      AND q.run_at <> 'infinity')`;

const RECORD_SQL = `WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[],
      $9::text[], $10::text[], $11::timestamptz[], $12::uuid[], $13::int[])
      WITH ORDINALITY AS i(delivery_id, attempt, status_code, duration_ms, excerpt, error, outcome, delay_ms,
        subscription_id, summary, delivery_created_at, account_id, pause_ms, n)),
  next AS (SELECT i.*, CASE WHEN i.outcome = 'retry' THEN date_trunc('milliseconds', now()) + i.delay_ms * interval
    '1 millisecond' END AS at FROM input i),
  -- Each delivery by its whole key (one day's partition). The attempt takes its account and day from the
  -- delivery it updates: no foreign key ties the two partitioned tables (migration outbound_daily_partitions),
  -- so an attempt of a delivery that is gone (its subscription deleted, its day dropped) is not written.
  delivery AS (
    UPDATE outbound_deliveries d SET attempts = x.attempt, updated_at = now(), next_attempt_at = x.at,
      status = CASE x.outcome WHEN 'succeeded' THEN 'succeeded' WHEN 'retry' THEN 'pending'
        ELSE 'failed' END::"OutboundDeliveryStatus"
    FROM next x WHERE d.id = x.delivery_id AND d.created_at = x.delivery_created_at
    RETURNING d.id, d.account_id, d.created_at),
  attempt AS (
    INSERT INTO outbound_attempts (account_id, delivery_id, delivery_created_at, subscription_id, attempt, status_code,
      duration_ms, response_excerpt, error, outcome)
    SELECT u.account_id, i.delivery_id, u.created_at, i.subscription_id, i.attempt, i.status_code, i.duration_ms,
      i.excerpt, i.error, i.outcome
    FROM input i JOIN delivery u ON u.id = i.delivery_id ORDER BY i.n),
  latest AS (SELECT DISTINCT ON (subscription_id) subscription_id, account_id, outcome, summary, pause_ms FROM input
    ORDER BY subscription_id, n DESC),
  locked AS MATERIALIZED (
    SELECT s.id, s.account_id, s.failing_since, s.last_delivery_ok, s.last_error, s.last_delivery_at, l.outcome,
      l.summary, l.pause_ms
    FROM webhook_subscriptions s JOIN latest l ON s.account_id = l.account_id AND s.id = l.subscription_id
    ORDER BY s.id FOR NO KEY UPDATE OF s),
  subscription AS (
    UPDATE webhook_subscriptions s SET last_delivery_at = now(), last_delivery_ok = (k.outcome = 'succeeded'),
      last_error = CASE WHEN k.outcome = 'succeeded' THEN NULL ELSE k.summary END,
      failing_since = CASE WHEN k.outcome = 'succeeded' THEN NULL ELSE COALESCE(k.failing_since, now()) END
    FROM locked k
    WHERE s.account_id = k.account_id AND s.id = k.id
      AND NOT (k.outcome = 'succeeded' AND k.last_delivery_ok IS TRUE AND k.failing_since IS NULL
        AND k.last_error IS NULL
               AND k.last_delivery_at > now() - interval '1 second')
    RETURNING s.id, s.failing_since),
  -- Read from locked, so the counter rows are written only once the batch's subscriptions are locked:
  -- two recorders never wait on each other's counters.
  counted AS (
    INSERT INTO outbound_attempt_hours AS h (account_id, hour, subscription_id, outcome, attempts)
    SELECT k.account_id, date_trunc('hour', now(), 'UTC'), i.subscription_id, i.outcome, count(*)
    FROM input i JOIN locked k ON k.id = i.subscription_id
    GROUP BY k.account_id, i.subscription_id, i.outcome
    ON CONFLICT (account_id, hour, subscription_id, outcome) DO UPDATE SET attempts = h.attempts + EXCLUDED.attempts),
  ${QUEUE_AND_CIRCUIT}
  SELECT i.n::int AS n, u.failing_since
  FROM input i LEFT JOIN subscription u ON u.id = i.subscription_id ORDER BY i.n`;

/** A recorder for one worker: its attempts, batched while a record statement runs. */
export function attemptRecorder(pool: pg.Pool): Recorder {
  const text = RECORD_SQL;
  return coalescing<AttemptRecord, Date | null>(
    async (records) => {
      const column = <K extends keyof AttemptRecord>(key: K) => records.map((record) => record[key]);
      const { rows } = await pool.query<{ n: number; failing_since: Date | null }>({
        name: "outbound-record-batch",
        text,
        values: [
          column("deliveryId"),
          column("attempt"),
          column("statusCode"),
          column("durationMs"),
          records.map((record) => record.excerpt.replace(/\u0000/g, "")),
          column("error"),
          column("outcome"),
          column("delayMs"),
          column("subscriptionId"),
          column("summary"),
          column("deliveryCreatedAt"),
          column("accountId"),
          column("pauseMs"),
        ],
      });
      return rows.map((row) => row.failing_since);
    },
    MAX_BATCH,
    RECORD_LINGER_MS,
  );
}
