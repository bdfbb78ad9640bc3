import "server-only";
import type pg from "pg";
import { coalescing } from "./coalesce";

/*
 * Recording attempts (docs/outbound-webhooks.md, "Delivery"): the attempts that finished while the
 * previous record statement ran are recorded together by the next one (coalesce.ts), so under load a
 * statement records many attempts, and idle it records one at once.
 *
 * Per attempt, in one statement: the attempt row; the delivery's state (succeeded, pending with its next
 * attempt, or failed); for a retry, its job (keyed by the delivery, with its run_at). The job that ran the
 * attempt is finished by whoever holds it (feed.ts, or graphile-worker for its own). Per subscription, after its
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

const RECORD_SQL = (task: string) => `WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[],
      $9::text[], $10::text[], $11::timestamptz[])
      WITH ORDINALITY AS i(delivery_id, attempt, status_code, duration_ms, excerpt, error, outcome, delay_ms,
        subscription_id, summary, delivery_created_at, n)),
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
  job AS (
    -- A retry is a job of its own, keyed by the delivery. Should the key's job be the one running this
    -- attempt (a retry's retry), add_job leaves that one to finish and queues a new one.
    SELECT graphile_worker.add_job('${task}', json_build_object('delivery_id', x.delivery_id::text), run_at => x.at,
      max_attempts => 25, job_key => 'outbound-delivery:' || x.delivery_id::text)
    FROM next x WHERE x.at IS NOT NULL),
  latest AS (SELECT DISTINCT ON (subscription_id) subscription_id, outcome, summary FROM input
    ORDER BY subscription_id, n DESC),
  locked AS MATERIALIZED (
    SELECT s.id, s.account_id, s.failing_since, s.last_delivery_ok, s.last_error, s.last_delivery_at, l.outcome,
      l.summary
    FROM webhook_subscriptions s JOIN latest l ON l.subscription_id = s.id ORDER BY s.id FOR NO KEY UPDATE OF s),
  subscription AS (
    UPDATE webhook_subscriptions s SET last_delivery_at = now(), last_delivery_ok = (k.outcome = 'succeeded'),
      last_error = CASE WHEN k.outcome = 'succeeded' THEN NULL ELSE k.summary END,
      failing_since = CASE WHEN k.outcome = 'succeeded' THEN NULL ELSE COALESCE(k.failing_since, now()) END
    FROM locked k
    WHERE s.id = k.id
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
    ON CONFLICT (account_id, hour, subscription_id, outcome) DO UPDATE SET attempts = h.attempts + EXCLUDED.attempts)
  -- job is a plain SELECT (add_job): it runs only because it is read here.
  SELECT i.n::int AS n, u.failing_since, (SELECT count(*) FROM job)::int AS queued
  FROM input i LEFT JOIN subscription u ON u.id = i.subscription_id ORDER BY i.n`;

/** A recorder for one worker: its attempts, batched while a record statement runs. */
export function attemptRecorder(pool: pg.Pool, task: string): Recorder {
  const text = RECORD_SQL(task);
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
        ],
      });
      return rows.map((row) => row.failing_since);
    },
    MAX_BATCH,
    RECORD_LINGER_MS,
  );
}
