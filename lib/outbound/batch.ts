import "server-only";
import crypto from "node:crypto";
import type pg from "pg";
import { coalescing } from "./coalesce";
import { attemptDelivery, deliver, DELIVER_TASK, LOAD_COLUMNS, type Attempted, type DeliverOptions, type Loaded } from "./deliver";
import type { Permits } from "./permits";

/*
 * A "deliver" task that keeps going while work is due: besides the delivery of the job graphile-worker
 * handed out, it runs `lanes` lanes, each of which claims the next due "deliver" job itself (the
 * statement that claims it also loads it), delivers it and records the attempt, then claims the next.
 * The claims of all lanes of a worker, like their records (record.ts), are batched while a statement
 * runs (coalesce.ts): under load one statement claims or records the jobs of many lanes, instead of
 * graphile-worker's fetch and completion per job. A slow receiver holds up one lane, not the others.
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
  claim: Claimer;
  /** One per attempt in flight, shared by the worker's lanes: its concurrency. */
  permits: Permits;
  /** Stop claiming once the task has run this long. */
  maxRunMs: number;
  /** Stop claiming at once (the worker is stopping). */
  stopping: () => boolean;
};

const WORKER_ID = `outbound-lanes-${process.pid}-${crypto.randomBytes(6).toString("hex")}`;

type Claimed = Loaded & { job_id: string; wanted_id: string };

/** Claims one due job for a lane that can start it at once; null when none is due. */
export type Claimer = () => Promise<Claimed | null>;

// The payload is {"delivery_id": "<uuid>"} (the fan-out relay, relay.ts, and deliver.ts write it); anything else is left to fail on its own.
const CLAIM_SQL = `WITH claimed AS (
    UPDATE graphile_worker._private_jobs j SET attempts = j.attempts + 1, locked_by = $1::text, locked_at = now()
    FROM (SELECT id FROM graphile_worker._private_jobs
          WHERE is_available = true AND job_queue_id IS NULL AND run_at <= now()
            AND task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = '${DELIVER_TASK}')
            AND (payload->>'delivery_id') ~ '^[0-9a-fA-F-]{36}$'
          ORDER BY priority, run_at LIMIT $2::int FOR UPDATE SKIP LOCKED) picked
    WHERE j.id = picked.id
    RETURNING j.id::text AS job_id, (j.payload->>'delivery_id')::uuid AS wanted_id)
  SELECT c.job_id, c.wanted_id::text AS wanted_id, ${LOAD_COLUMNS}
  FROM claimed c
    LEFT JOIN outbound_deliveries d ON d.id = c.wanted_id
    LEFT JOIN outbound_messages m ON m.id = d.message_id
    LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id`;

/** A worker's claimer: the lanes waiting while a claim runs get their jobs from the next one, together. */
export function jobClaimer(pool: pg.Pool, maxBatch: number): Claimer {
  const claim = coalescing<null, Claimed | null>(async (requests) => {
    const { rows } = await pool.query<Claimed>({ name: "outbound-claim", text: CLAIM_SQL, values: [WORKER_ID, requests.length] });
    return requests.map((_, index) => rows[index] ?? null);
  }, maxBatch);
  return () => claim(null);
}

/** Attempts of a task waiting for their record at most before its lanes wait too: bounds memory and lock time. */
const MAX_UNRECORDED = 200;

/**
 * The task's delivery, then lanes that claim due jobs until none is left or time is up. A lane goes on
 * to its next job once the receiver has answered; the attempt is recorded meanwhile (record.ts), and the
 * task ends only when every attempt it made is recorded, its own included (graphile-worker then completes
 * the task's job: a delivery is never left without a record or a job).
 */
export async function deliverWithLanes(deliveryId: string, options: LaneOptions): Promise<void> {
  const started = Date.now();
  const unrecorded = new Set<Promise<void>>();
  const failures: unknown[] = [];
  const track = ({ recorded }: Attempted) => {
    const settled: Promise<void> = recorded.then(
      () => {},
      (error: unknown) => void failures.push(error),
    ).finally(() => unrecorded.delete(settled));
    unrecorded.add(settled);
  };
  const keepClaiming = () => !options.stopping() && failures.length === 0 && Date.now() - started < options.maxRunMs;
  const lane = async () => {
    while (keepClaiming()) {
      if (unrecorded.size >= MAX_UNRECORDED) {
        await Promise.race(unrecorded);
        continue;
      }
      const row = await options.claim();
      if (!row) return;
      // A delivery that no longer exists comes back as a row of nulls but for the job and the id.
      track(await options.permits(() => attemptDelivery(row.wanted_id, row.delivery_id ? row : null, row.job_id, options)));
    }
  };
  const first = async () => {
    track(await options.permits(() => deliver(deliveryId, options)));
    await lane();
  };
  const results = await Promise.allSettled([first(), ...Array.from({ length: Math.max(0, options.lanes - 1) }, lane)]);
  await Promise.all(unrecorded);
  // Every lane and record has finished before a failure is reported, so nothing runs on after the task ends.
  const failed = results.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  if (failures.length > 0) throw failures[0];
}
