import "server-only";
import crypto from "node:crypto";
import { attemptDelivery, deliver, DELIVER_TASK, LOAD_COLUMNS, type DeliverOptions, type Loaded } from "./deliver";

/*
 * A "deliver" task that keeps going while work is due: besides the delivery of the job graphile-worker
 * handed out, it runs `lanes` lanes, each of which claims the next due "deliver" job itself (one
 * statement claims and loads it), delivers it and records the attempt, then claims the next. Per
 * delivery that is two statements instead of four (graphile-worker's fetch and completion of a job each
 * cost one), and a slow receiver holds up one lane, not the others.
 *
 * A claimed job is locked in graphile-worker's jobs table exactly as graphile-worker locks the jobs it
 * hands out (attempts + 1, locked_at, locked_by), so no other worker takes it; the attempt's record
 * deletes it or, for a retry, unlocks it with its new run_at (deliver.ts). A lane claims a job only when
 * it can start it at once, so a claimed job is locked no longer than its own attempt; a worker killed
 * mid-attempt leaves it locked until the stale-lock sweep (worker.ts) frees it. Lanes stop claiming after
 * `maxRunMs`, so the task's own job is never held for longer than the sweep allows. graphile-worker
 * 0.16's table layout (_private_jobs, _private_tasks) is relied on here, as in worker.ts.
 */

export type LaneOptions = DeliverOptions & {
  lanes: number;
  /** Stop claiming once the task has run this long. */
  maxRunMs: number;
  /** Stop claiming at once (the worker is stopping). */
  stopping: () => boolean;
};

const WORKER_ID = `outbound-lanes-${process.pid}-${crypto.randomBytes(6).toString("hex")}`;

type Claimed = Loaded & { job_id: string; wanted_id: string };

// The payload is {"delivery_id": "<uuid>"} (the fan-out trigger and deliver.ts write it); anything else is left to fail on its own.
const CLAIM_SQL = `WITH claimed AS (
    UPDATE graphile_worker._private_jobs j SET attempts = j.attempts + 1, locked_by = $1::text, locked_at = now()
    FROM (SELECT id FROM graphile_worker._private_jobs
          WHERE is_available = true AND job_queue_id IS NULL AND run_at <= now()
            AND task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = '${DELIVER_TASK}')
            AND (payload->>'delivery_id') ~ '^[0-9a-fA-F-]{36}$'
          ORDER BY priority, run_at LIMIT 1 FOR UPDATE SKIP LOCKED) picked
    WHERE j.id = picked.id
    RETURNING j.id::text AS job_id, (j.payload->>'delivery_id')::uuid AS wanted_id)
  SELECT c.job_id, c.wanted_id::text AS wanted_id, ${LOAD_COLUMNS}
  FROM claimed c
    LEFT JOIN outbound_deliveries d ON d.id = c.wanted_id
    LEFT JOIN outbound_messages m ON m.id = d.message_id
    LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id`;

/** The task's delivery, then lanes that claim due jobs until none is left or time is up. */
export async function deliverWithLanes(deliveryId: string, options: LaneOptions): Promise<void> {
  const started = Date.now();
  const keepClaiming = () => !options.stopping() && Date.now() - started < options.maxRunMs;
  const lane = async () => {
    while (keepClaiming()) {
      const { rows } = await options.pool.query<Claimed>({ name: "outbound-claim", text: CLAIM_SQL, values: [WORKER_ID] });
      const row = rows[0];
      if (!row) return;
      // A delivery that no longer exists comes back as a row of nulls but for the job and the id.
      await attemptDelivery(row.wanted_id, row.delivery_id ? row : null, row.job_id, options);
    }
  };
  const first = async () => {
    await deliver(deliveryId, options);
    await lane();
  };
  const results = await Promise.allSettled([first(), ...Array.from({ length: Math.max(0, options.lanes - 1) }, lane)]);
  // Every lane has finished before a failure is reported, so nothing runs on after the task ends.
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}
