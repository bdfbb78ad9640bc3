import "server-only";
import type pg from "pg";

/*
 * The outbound queue (docs/outbound-webhooks.md, "Workers"): every statement on outbound_queue and
 * outbound_circuits but the attempt record (record.ts), and every statement that touches graphile-worker
 * on the outbound side. A pending delivery is one row of outbound_queue, claimed in batches with FOR
 * UPDATE SKIP LOCKED, never a graphile-worker job, so graphile-worker's job table does not grow with a
 * backlog. A row whose subscription has an open circuit (outbound_circuits) waits parked (run_at
 * 'infinity'), outside the claim's index range, so a failing receiver's backlog costs the others' claims
 * nothing; at the circuit's paused_until the tick wakes its oldest row alone, the probe.
 */

export type Queryable = Pick<pg.Pool, "query">;

/** A claimed queue row, by its key. */
export type QueueKey = { accountId: string; deliveryId: string };

/** A delivery with its message, subscription and circuit, for a FROM clause naming them d, m, s and k. */
const LOAD_COLUMNS = `d.id AS delivery_id, d.created_at AS delivery_created_at,
    d.status::text AS delivery_status, d.attempts, m.id AS message_id,
    m.payload::text AS body,
    s.id AS subscription_id, s.account_id, s.url, s.status::text AS subscription_status, s.secret_ciphertext,
    CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_ciphertext END AS previous_secret_ciphertext,
    (extract(epoch FROM CASE WHEN d.next_attempt_at = d.created_at THEN m.created_at
      ELSE COALESCE(d.next_attempt_at, d.created_at) END) * 1000)::float8 AS due_ms,
    COALESCE(k.failures, 0) AS circuit_failures, COALESCE(k.probe_delivery_id = d.id, false) AS probe`;

/**
 * Each delivery of `deliveries` (a FROM item naming its rows d, with the columns of outbound_deliveries)
 * loaded for its attempt (Loaded, deliver.ts): with its message, subscription and circuit. The message comes
 * after its delivery, by its whole key (OFFSET 0 keeps it a lookup per delivery): it shares the delivery's
 * account and time with every message of its batch, so a plan free to join it first (a generic one made on
 * empty tables) would read the whole batch per delivery.
 */
export const loadDeliveries = (deliveries: string) => `SELECT ${LOAD_COLUMNS}
    FROM ${deliveries}
      CROSS JOIN LATERAL (SELECT m.id, m.payload, m.created_at FROM outbound_messages m
        WHERE m.id = d.message_id AND m.created_at = d.created_at AND m.account_id = d.account_id OFFSET 0) m
      JOIN webhook_subscriptions s ON s.id = d.subscription_id AND s.account_id = d.account_id
      LEFT JOIN outbound_circuits k ON k.account_id = d.account_id AND k.subscription_id = d.subscription_id`;

// The next $2 due rows nobody holds, in queue order. A row of a subscription whose circuit is open (and
// that is not its probe) is parked on the way, in the same statement: it got in before the circuit opened.
// The rest are locked for this worker ($1) and loaded, each by its key (a lateral lookup).
const CLAIM_SQL = `WITH candidates AS MATERIALIZED (
    SELECT q.account_id, q.delivery_id, q.delivery_created_at, q.seq,
      EXISTS (SELECT 1 FROM outbound_circuits c WHERE c.account_id = q.account_id
        AND c.subscription_id = q.subscription_id AND c.probe_delivery_id IS DISTINCT FROM q.delivery_id) AS held
    FROM outbound_queue q
    WHERE q.locked_at IS NULL AND q.run_at <= now()
    ORDER BY q.run_at, q.seq LIMIT $2::int FOR UPDATE OF q SKIP LOCKED),
  parked AS (
    UPDATE outbound_queue q SET run_at = 'infinity' FROM candidates c
    WHERE c.held AND q.account_id = c.account_id AND q.delivery_id = c.delivery_id RETURNING 1),
  claimed AS (
    UPDATE outbound_queue q SET locked_by = $1::text, locked_at = now() FROM candidates c
    WHERE NOT c.held AND q.account_id = c.account_id AND q.delivery_id = c.delivery_id
    RETURNING q.account_id, q.delivery_id, q.delivery_created_at, q.seq)
  -- One row at least, so that a claim that only parked says so.
  SELECT c.account_id::text AS queue_account_id, c.delivery_id::text AS wanted_id, l.*, p.parked
  FROM (SELECT count(*)::int AS parked FROM parked) p LEFT JOIN (claimed c LEFT JOIN LATERAL (
    ${loadDeliveries("outbound_deliveries d")}
    -- By its whole key: one day's partition.
    WHERE d.id = c.delivery_id AND d.created_at = c.delivery_created_at AND d.account_id = c.account_id) l ON true)
    ON true
  ORDER BY c.seq`;

export type ClaimedRow = {
  queue_account_id: string;
  wanted_id: string;
  parked: number;
  /** Null columns below when the delivery is gone (deleted with its subscription, or swept). */
  delivery_id: string | null;
} & Record<string, unknown>;

/** Whether a row of a claim (or of a relay that keeps rows for its worker) names a queue row. */
export const hasQueueKey = (row: ClaimedRow) => (row.wanted_id as string | null) !== null;

/** Claims up to `limit` due rows for `workerId`; `parked` says how many it parked behind open circuits. */
export async function claimDue(
  pool: Queryable,
  workerId: string,
  limit: number,
): Promise<{ rows: ClaimedRow[]; parked: number }> {
  // Named: prepared once per connection. Its generic plan walks the due index only because the worker's
  // connections price out sequential and bitmap scans (worker.ts).
  const { rows } = await pool.query<ClaimedRow>({
    name: "outbound-claim",
    text: CLAIM_SQL,
    values: [workerId, limit],
  });
  // A claim that claimed nothing answers one row with no key, for its parked count.
  const claimed = rows.filter(hasQueueKey);
  return { rows: claimed, parked: rows[0]?.parked ?? 0 };
}

const KEYS = "unnest($1::uuid[], $2::uuid[]) AS k(account_id, delivery_id)";
const MINE = "q.account_id = k.account_id AND q.delivery_id = k.delivery_id AND q.locked_by = $3";

const SETTLE_SQL = {
  // Not attempted and never to be (gone, no longer pending, subscription disabled): off the queue.
  done: `DELETE FROM outbound_queue q USING ${KEYS} WHERE ${MINE}`,
  // Not started (the worker stops, or its circuit opened meanwhile): back to the queue, parked if the
  // circuit is open.
  release: `UPDATE outbound_queue q SET locked_by = NULL, locked_at = NULL,
      run_at = CASE WHEN EXISTS (SELECT 1 FROM outbound_circuits c WHERE c.account_id = q.account_id
        AND c.subscription_id = q.subscription_id AND c.probe_delivery_id IS DISTINCT FROM q.delivery_id)
        THEN 'infinity' ELSE q.run_at END
    FROM ${KEYS} WHERE ${MINE}`,
  refresh: `UPDATE outbound_queue q SET locked_at = now() FROM ${KEYS} WHERE ${MINE}`,
} as const;

export type Settlement = keyof typeof SETTLE_SQL;

/** Applies `settlement` to the rows of `keys` still held by `workerId`. */
export async function settleRows(
  pool: Queryable,
  workerId: string,
  settlement: Settlement,
  keys: QueueKey[],
): Promise<void> {
  if (keys.length === 0) return;
  await pool.query({
    name: `outbound-queue-${settlement}`,
    text: SETTLE_SQL[settlement],
    values: [keys.map((key) => key.accountId), keys.map((key) => key.deliveryId), workerId],
  });
}

/** Frees rows locked longer than `lockMs`: their worker died mid-delivery; they are attempted again. */
export async function freeStaleLocks(pool: Queryable, lockMs: number): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE outbound_queue SET locked_by = NULL, locked_at = NULL
     WHERE locked_at < now() - $1::int * interval '1 millisecond'`,
    [Math.round(lockMs)],
  );
  return rowCount ?? 0;
}

export const QUEUED_CHANNEL = "outbound:queued";

// Circuits whose pause is over and that have no probe in flight (none chosen, or its row is gone): for an
// active subscription, its oldest row that nobody holds becomes the probe and is due now; a circuit with
// no row left closes. A circuit of a subscription that is disabled or deleted closes at once and its rows
// are unparked: the workers then mark them failed (or drop them), as for any delivery of a disabled
// subscription. SKIP LOCKED everywhere: the tick never waits for, nor holds up, a claim or a record.
const TICK_SQL = `WITH due AS MATERIALIZED (
    SELECT c.account_id, c.subscription_id, COALESCE(s.status::text = 'active', false) AS active
    FROM outbound_circuits c LEFT JOIN webhook_subscriptions s ON s.id = c.subscription_id
      AND s.account_id = c.account_id
    WHERE (c.paused_until <= now()
        AND (c.probe_delivery_id IS NULL OR NOT EXISTS (SELECT 1 FROM outbound_queue q
          WHERE q.account_id = c.account_id AND q.delivery_id = c.probe_delivery_id)))
      OR s.status IS DISTINCT FROM 'active'
    ORDER BY c.paused_until LIMIT 100 FOR UPDATE OF c SKIP LOCKED),
  head AS MATERIALIZED (
    SELECT due.account_id, due.subscription_id, h.delivery_id
    FROM due CROSS JOIN LATERAL (
      SELECT q.delivery_id FROM outbound_queue q
      WHERE q.account_id = due.account_id AND q.subscription_id = due.subscription_id AND q.locked_at IS NULL
      ORDER BY q.seq LIMIT 1 FOR UPDATE SKIP LOCKED) h
    WHERE due.active),
  closing AS (
    SELECT due.account_id, due.subscription_id FROM due
    WHERE NOT due.active OR NOT EXISTS (SELECT 1 FROM outbound_queue q
      WHERE q.account_id = due.account_id AND q.subscription_id = due.subscription_id)),
  closed AS (
    DELETE FROM outbound_circuits c USING closing x
    WHERE c.account_id = x.account_id AND c.subscription_id = x.subscription_id RETURNING 1),
  unparked AS (
    UPDATE outbound_queue q SET run_at = now() FROM closing x
    WHERE q.account_id = x.account_id AND q.subscription_id = x.subscription_id AND q.run_at = 'infinity'
    RETURNING 1),
  probing AS (
    UPDATE outbound_circuits c SET probe_delivery_id = h.delivery_id, probe_started_at = now() FROM head h
    WHERE c.account_id = h.account_id AND c.subscription_id = h.subscription_id RETURNING 1),
  woken AS (
    UPDATE outbound_queue q SET run_at = now() FROM head h
    WHERE q.account_id = h.account_id AND q.delivery_id = h.delivery_id RETURNING 1),
  counted AS (SELECT (SELECT count(*) FROM woken)::int + (SELECT count(*) FROM unparked)::int AS due,
    (SELECT count(*) FROM closed)::int AS closed, (SELECT count(*) FROM probing)::int AS probes)
  SELECT due, closed, probes, CASE WHEN due > 0 THEN pg_notify('${QUEUED_CHANNEL}', '') END FROM counted`;

/** Starts the probes whose time has come; answers how many rows it made due. */
export async function tickCircuits(pool: Queryable): Promise<number> {
  const { rows } = await pool.query<{ due: number }>({ name: "outbound-circuit-tick", text: TICK_SQL });
  return rows[0]?.due ?? 0;
}

/**
 * Deliveries were graphile-worker jobs of the task "deliver" before this queue: the migration that made it
 * moved every pending delivery here, and this removes the old jobs through graphile-worker's public view
 * and function (complete_jobs leaves a job a live worker holds alone). Nothing when the schema is absent.
 */
export async function removeLegacyDeliverJobs(pool: Queryable): Promise<void> {
  await pool.query(`DO $$ BEGIN
    IF to_regclass('graphile_worker.jobs') IS NOT NULL THEN
      PERFORM graphile_worker.complete_jobs(ARRAY(SELECT id FROM graphile_worker.jobs
        WHERE task_identifier = 'deliver'));
    END IF;
  END $$`);
}
