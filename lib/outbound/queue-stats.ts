import "server-only";
import type pg from "pg";

/*
 * The outbound queue as the database holds it, for /metrics (docs/operations.md, "Metrics"): the same
 * for every process, wherever the workers run. Messages waiting for the fan-out relay, and deliveries in
 * the queue (queue.ts): ready (due and unclaimed), scheduled (parked behind an open circuit, or due later)
 * and running (claimed). The age of the oldest waiting message and of the oldest ready delivery is the lag
 * no worker has picked up yet. Open circuits are the subscriptions whose receiver is failing now: their
 * deliveries wait parked until a probe succeeds.
 */

export type QueueStats = {
  fanOut: number;
  fanOutOldestSeconds: number;
  ready: number;
  scheduled: number;
  running: number;
  readyOldestSeconds: number;
  openCircuits: number;
  subscriptions: Array<{ status: string; count: number }>;
};

const QUEUE_SQL = `SELECT
    (SELECT count(*) FROM outbound_fan_outs)::int AS fan_out,
    COALESCE((SELECT extract(epoch FROM now() - f.message_created_at) FROM outbound_fan_outs f ORDER BY f.id LIMIT 1),
      0)::float8 AS fan_out_oldest,
    j.ready, j.scheduled, j.running, COALESCE(j.ready_oldest, 0)::float8 AS ready_oldest,
    (SELECT count(*) FROM outbound_circuits)::int AS open_circuits,
    (SELECT COALESCE(json_agg(json_build_object('status', s.status, 'count', s.count)), '[]'::json)
       FROM (SELECT status::text AS status, count(*)::int AS count FROM webhook_subscriptions GROUP BY status) s)
         AS subscriptions
  FROM (
    SELECT count(*) FILTER (WHERE locked_at IS NULL AND run_at <= now())::int AS ready,
      count(*) FILTER (WHERE locked_at IS NULL AND run_at > now())::int AS scheduled,
      count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
      extract(epoch FROM now() - min(run_at) FILTER (WHERE locked_at IS NULL AND run_at <= now())) AS ready_oldest
    FROM outbound_queue) j`;

/** Null while the database has no outbound queue (not migrated yet). */
export async function readQueueStats(pool: pg.Pool): Promise<QueueStats | null> {
  const exists = await pool.query<{ ok: boolean }>("SELECT to_regclass('outbound_queue') IS NOT NULL AS ok");
  if (!exists.rows[0]?.ok) return null;
  const { rows } = await pool.query(QUEUE_SQL);
  const row = rows[0];
  return {
    fanOut: row.fan_out,
    fanOutOldestSeconds: row.fan_out_oldest,
    ready: row.ready,
    scheduled: row.scheduled,
    running: row.running,
    readyOldestSeconds: row.ready_oldest,
    openCircuits: row.open_circuits,
    subscriptions: row.subscriptions,
  };
}
