import "server-only";
import pg from "pg";
import { isUniqueViolation } from "@/lib/platform/db/errors";
import { hasQueueKey, loadDeliveries, QUEUED_CHANNEL, type ClaimedRow } from "./queue";

/*
 * The fan-out relay (docs/outbound-webhooks.md, "Workers"). A writer's transaction adds, next to its
 * messages, one row per message to outbound_fan_outs when the account has a matching active subscription
 * (the trigger of the outbound_fan_out_relay migration); nothing else. Creating the deliveries and their
 * queue rows in the writer's transaction would put two more rows and six more index entries per change
 * on the writer's clock (docs/outbound-webhooks.md, "Tuning").
 *
 * Every worker runs this relay: woken by the trigger's NOTIFY (or its poll), it takes the waiting rows in
 * batches, oldest first, and in one statement deletes them, creates the deliveries for the subscriptions
 * that are active now and have been since the message was written (active_since), and adds a row per
 * delivery to the outbound queue (queue.ts), locked for its own worker's lanes while they have room (the
 * Adopter below). FOR UPDATE SKIP LOCKED lets several workers drain the
 * queue at once without taking a row twice; a relay that dies mid-statement rolls back, and its rows wait
 * for the next one. A delivery that exists is not created again should a message ever be queued twice.
 */

const RELAY_BATCH = 500;
export const FAN_OUT_CHANNEL = "outbound:fan_out";

// The batch is picked in its own CTE: inside "DELETE … WHERE id IN (SELECT … LIMIT … SKIP LOCKED)"
// the planner may run the subquery more than once, and one statement then took 300 rows of a batch of 100.
const RELAY_SQL = `WITH picked AS MATERIALIZED (
    SELECT id FROM outbound_fan_outs ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED),
  taken AS (
    DELETE FROM outbound_fan_outs f USING picked p WHERE f.id = p.id
    RETURNING f.id, f.account_id, f.message_id, f.message_created_at),
  -- A message queued twice in one batch counts once.
  distinct_taken AS (SELECT min(id) AS id, account_id, message_id, message_created_at FROM taken
    GROUP BY account_id, message_id, message_created_at),
  created AS (
    -- A delivery takes its message's account and time: it sits in its message's day partition
    -- (migration outbound_daily_partitions).
    INSERT INTO outbound_deliveries (account_id, message_id, subscription_id, created_at, next_attempt_at)
    -- Due since the message was written (the first attempt's lag counts from there, deliver.ts).
    SELECT m.account_id, m.id, s.id, m.created_at, m.created_at
    -- Each message by its whole key, so one day's partition is read (OFFSET 0 keeps the lookup a lookup):
    -- on stale statistics the planner otherwise hashed every message of the account written since the
    -- subscription became active.
    FROM distinct_taken t CROSS JOIN LATERAL (
      SELECT id, account_id, type, created_at FROM outbound_messages
      WHERE id = t.message_id AND created_at = t.message_created_at AND account_id = t.account_id OFFSET 0) m
    -- Matched as of now, but never with a message written before the subscription became active.
    JOIN webhook_subscriptions s ON s.account_id = m.account_id AND s.status = 'active'
      AND s.active_since <= m.created_at
    WHERE ('*' = ANY (s.event_types) OR m.type = ANY (s.event_types)
      OR split_part(m.type, '.', 1) || '.*' = ANY (s.event_types))
      -- Not ON CONFLICT DO NOTHING: its speculative insertion cost about a sixth of this statement. Should
      -- another relay insert the same delivery at the same moment (the message queued twice), the unique
      -- index fails this statement, its batch stays queued, and the drain runs again at once, skipping
      -- what now exists.
      AND NOT EXISTS (SELECT 1 FROM outbound_deliveries x WHERE x.message_id = m.id AND x.subscription_id = s.id
        AND x.created_at = m.created_at AND x.account_id = m.account_id)
    ORDER BY t.id, s.id
    RETURNING id, account_id, message_id, subscription_id, created_at, status, attempts, next_attempt_at),
  -- Parked at once when its subscription's circuit is open; of the rest, the first $3 are taken by the
  -- relaying worker ($2), when it has room for them (adopted below): they never wait for a claim.
  placed AS (
    SELECT c.*, p.parked, $2::text IS NOT NULL AND NOT p.parked
      AND count(*) FILTER (WHERE NOT p.parked) OVER (ORDER BY c.id ROWS UNBOUNDED PRECEDING) <= $3::int AS mine
    FROM created c CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM outbound_circuits k
      WHERE k.account_id = c.account_id AND k.subscription_id = c.subscription_id) AS parked) p),
  queued AS (
    -- One queue row per delivery (queue.ts).
    INSERT INTO outbound_queue (account_id, delivery_id, subscription_id, delivery_created_at, run_at, locked_by,
      locked_at)
    SELECT account_id, id, subscription_id, created_at, CASE WHEN parked THEN 'infinity' ELSE now() END,
      CASE WHEN mine THEN $2::text END, CASE WHEN mine THEN now() END
    FROM placed
    RETURNING run_at, locked_by),
  -- The relaying worker's rows, loaded as a claim loads them (queue.ts).
  adopted AS (
    SELECT l.account_id::text AS queue_account_id, l.delivery_id::text AS wanted_id, l.*
    FROM (${loadDeliveries("placed d")} WHERE d.mine) l),
  counted AS (SELECT (SELECT count(*) FROM taken)::int AS taken, (SELECT count(*) FROM queued)::int AS queued,
    (SELECT count(*) FROM queued WHERE run_at <> 'infinity' AND locked_by IS NULL)::int AS due)
  -- One NOTIFY per batch wakes every worker's lanes for the rows left to claim. At least one row, for the
  -- counts, whether or not any was adopted.
  SELECT n.taken, n.queued, CASE WHEN n.due > 0 THEN pg_notify('${QUEUED_CHANNEL}', '') END, a.*
  FROM counted n LEFT JOIN adopted a ON true ORDER BY a.delivery_id`;

type Queryable = Pick<pg.Pool, "query">;

/**
 * The worker a relay runs in, taking the due deliveries it creates (up to `room()` at each batch) as if it
 * had claimed them (feed.ts): one write of each queue row instead of an insert and a claim's update.
 */
export type Adopter = { workerId: string; room: () => number; adopt: (rows: ClaimedRow[], claimedAt: number) => void };

/**
 * Fans out every message waiting now, batch by batch; returns the number of deliveries queued.
 * `shouldStop` is asked before each batch so that a worker shutting down does not drain a backlog first.
 */
export async function relayFanOuts(
  pool: Queryable,
  batch = RELAY_BATCH,
  shouldStop: () => boolean = () => false,
  adopter?: Adopter,
): Promise<number> {
  let queued = 0;
  while (!shouldStop()) {
    const claimedAt = Date.now();
    const room = adopter?.room() ?? 0;
    const { rows } = await pool.query<ClaimedRow & { taken: number; queued: number }>(RELAY_SQL, [
      batch,
      room > 0 ? adopter!.workerId : null,
      room,
    ]);
    queued += rows[0].queued;
    const adopted = rows.filter(hasQueueKey);
    if (adopted.length > 0) adopter!.adopt(adopted, claimedAt);
    if (rows[0].taken < batch) break;
  }
  return queued;
}

/** While the relay keeps failing, say so again this often (not on every poll, not only once). */
const FAILURE_LOG_EVERY_MS = 60_000;

export type FanOutRelay = { stop: () => Promise<void> };

/**
 * Runs the relay whenever a writer's NOTIFY arrives and every `pollMs` (a wake-up can be skipped, and
 * a NOTIFY sent while the listener reconnects is lost), one drain at a time.
 */
export function startFanOutRelay(options: {
  pool: pg.Pool;
  connectionString: string;
  pollMs: number;
  log: (line: string) => void;
  /** Deliveries became due (this relay queued them, or another worker's relay or tick said so). */
  onQueued?: () => void;
  /** The worker's feed, which takes the deliveries this relay creates while it has room. */
  adopter?: Adopter;
}): FanOutRelay {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let lastFailureLog = 0;
  let racedJustBefore = false;
  const drain = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          if ((await relayFanOuts(options.pool, RELAY_BATCH, () => stopped, options.adopter)) > 0) options.onQueued?.();
          lastFailureLog = 0;
          racedJustBefore = false;
        } catch (error) {
          // Another relay created one of the batch's deliveries first: its row is committed, so running
          // again at once skips it (once in a row: should that fail too, the poll takes over rather than
          // a tight loop). Any other failure (the database went away): the rows stay queued, and the
          // next poll tries again.
          if (isUniqueViolation(error) && !racedJustBefore) {
            racedJustBefore = true;
            again = true;
            continue;
          }
          racedJustBefore = false;
          if (Date.now() - lastFailureLog >= FAILURE_LOG_EVERY_MS) {
            options.log(
              `outbound relay: fan-out failed (retried every poll): ` +
                `${error instanceof Error ? error.message : String(error)}`,
            );
            lastFailureLog = Date.now();
          }
          again = false;
        }
      } while (again && !stopped);
      running = null;
    })();
  };

  let listener: pg.Client | null = null;
  let reconnect: NodeJS.Timeout | null = null;
  const listen = async () => {
    reconnect = null;
    if (stopped) return;
    const client = new pg.Client({ connectionString: options.connectionString });
    let closed = false;
    const retry = () => {
      if (closed) return;
      closed = true;
      if (listener === client) listener = null;
      client.end().catch(() => {});
      if (!stopped && !reconnect) reconnect = setTimeout(() => void listen(), 2_000);
    };
    client.on("error", retry);
    client.on("end", retry);
    client.on("notification", (message) => {
      if (message.channel === QUEUED_CHANNEL) options.onQueued?.();
      else drain();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${FAN_OUT_CHANNEL}"`);
      await client.query(`LISTEN "${QUEUED_CHANNEL}"`);
      if (stopped) return void client.end().catch(() => {});
      listener = client;
      drain();
    } catch {
      retry();
    }
  };
  void listen();
  const poll = setInterval(drain, options.pollMs);
  poll.unref();

  return {
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      if (reconnect) clearTimeout(reconnect);
      await listener?.end().catch(() => {});
      await running;
    },
  };
}
