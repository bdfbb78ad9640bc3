import "server-only";
import crypto from "node:crypto";
import type pg from "pg";
import { coalescing } from "./coalesce";
import { DELIVER_TASK, LOAD_COLUMNS, type Loaded } from "./deliver";
import { JOB_CHUNK } from "./relay";
import { settleJobs, strandedJobs, type ClaimedJob, type Settlement } from "./settle-jobs";

/*
 * A worker's feed of due deliveries (docs/outbound-webhooks.md, "Workers"). Its delivery lanes (batch.ts)
 * take deliveries from a buffer; when it runs low, one statement claims the next due "deliver" jobs, as
 * many as make up the deliveries wanted (a job of the fan-out relay holds a chunk of them, a retry one),
 * and loads every delivery they name. Instead of graphile-worker's fetch and completion per job, a burst
 * then costs one claim per few dozen deliveries and one delete per job.
 *
 * A claimed job is locked in graphile-worker's jobs table exactly as graphile-worker locks the jobs it
 * hands out (attempts + 1, locked_at, locked_by), so no other worker takes it. It is held until every
 * delivery in it has been attempted and recorded, then deleted; while held, its lock is refreshed, so the
 * stale-lock sweep (worker.ts) frees only the jobs of a worker that died (their deliveries are then made
 * again, with the same webhook-id). A job left unsettled while the database was away (its record, delete
 * or unlock failed) is settled as soon as it answers again (settle-jobs.ts). When the
 * last lane stops (the worker stops, or the database failed), deliveries not yet started go back to the
 * queue: their jobs are unlocked once the started ones are recorded. graphile-worker 0.16's table layout
 * (_private_jobs, _private_tasks) is relied on here, as in worker.ts and relay.ts.
 */

const COMPLETE_LINGER_MS = 20;
const WORKER_ID = `outbound-lanes-${process.pid}-${crypto.randomBytes(6).toString("hex")}`;

// Of the next $2 due jobs, those are taken, in queue order, while the deliveries before them are fewer than
// wanted ($3): a chunk of the relay counts its deliveries, any other job one. A payload
// that is neither {"delivery_id"} nor {"delivery_ids": [...]} is left to graphile-worker to fail.
const CLAIM_SQL = `WITH candidates AS MATERIALIZED (
    SELECT id, priority, run_at,
           CASE WHEN json_typeof(payload->'delivery_ids') = 'array' THEN json_array_length(payload->'delivery_ids')
             ELSE 1 END AS size
    FROM graphile_worker._private_jobs
    WHERE is_available = true AND job_queue_id IS NULL AND run_at <= now()
      AND task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = '${DELIVER_TASK}')
      AND (outbound_uuid_or_null(payload->>'delivery_id') IS NOT NULL OR json_typeof(payload->'delivery_ids') = 'array')
    ORDER BY priority, run_at LIMIT $2::int FOR UPDATE SKIP LOCKED),
  picked AS (
    SELECT id FROM (SELECT id, sum(size) OVER (ORDER BY priority, run_at, id) - size AS before FROM candidates) c
    WHERE before < $3::int),
  -- The payload is json (graphile-worker's column): each -> parses all of it, about 3.5 µs for a chunk's
  -- 50 ids. So the ids are taken out once per job here, not once per delivery below.
  claimed AS (
    UPDATE graphile_worker._private_jobs j SET attempts = j.attempts + 1, locked_by = $1::text, locked_at = now()
    FROM picked WHERE j.id = picked.id
    RETURNING j.id, j.attempts, j.revision, j.payload->'delivery_ids' AS many, j.payload->'delivery_id' AS one),
  wanted AS (
    SELECT c.id AS job_id, c.attempts AS job_attempts, c.revision AS job_revision, json_typeof(c.many) = 'array'
      AS first_attempts, x.id AS wanted_id, x.n
    FROM claimed c LEFT JOIN LATERAL (
      SELECT outbound_uuid_or_null(e.value) AS id, e.n
      FROM json_array_elements_text(CASE WHEN json_typeof(c.many) = 'array' THEN c.many
        ELSE json_build_array(c.one) END)
        WITH ORDINALITY AS e(value, n)) x ON true)
  -- Each delivery is loaded by its key (a lateral lookup): the planner guesses 100 ids per job and would
  -- otherwise hash-join the whole deliveries table.
  SELECT w.job_id::text AS job_id, w.job_attempts, w.job_revision, w.first_attempts, w.wanted_id::text AS wanted_id, l.*
  FROM wanted w LEFT JOIN LATERAL (
    SELECT ${LOAD_COLUMNS}
    FROM outbound_deliveries d JOIN outbound_messages m ON m.id = d.message_id AND m.created_at = d.created_at
      AND m.account_id = d.account_id JOIN webhook_subscriptions s ON s.id = d.subscription_id
    WHERE d.id = w.wanted_id) l ON true
  ORDER BY w.job_id, w.n`;

type ClaimedRow = Partial<Loaded> & {
  job_id: string;
  job_attempts: number;
  job_revision: number;
  first_attempts: boolean;
  wanted_id: string | null;
};

/** A delivery to attempt; `settle` says whether its attempt was recorded (or it was left alone). */
export type FeedItem = {
  deliveryId: string;
  row: Loaded | null;
  firstAttempts: boolean;
  settle: (recorded: boolean) => void;
};

type HeldJob = ClaimedJob & { unsettled: number; failed: boolean; dropped: boolean };

export type JobFeed = {
  /** The next delivery: buffered, or from a new claim when `mayClaim`; null when none is due. */
  take: (mayClaim: boolean) => Promise<FeedItem | null>;
  /** A lane starts or stops taking; when the last one stops, what is buffered goes back to the queue. */
  enter: () => void;
  leave: () => void;
  /** Keeps the lock of a job graphile-worker handed out fresh while its task runs. */
  hold: (jobId: string) => () => void;
  /** Waits for the deletes and unlocks under way and stops refreshing locks. */
  close: () => Promise<void>;
};

export type FeedOptions = { pool: pg.Pool; wanted: number; refreshMs: number; log: (line: string) => void };

export function jobFeed({ pool, wanted, refreshMs, log }: FeedOptions): JobFeed {
  const buffer: Array<{ item: FeedItem; job: HeldJob }> = [];
  const held = new Map<string, HeldJob>();
  const handed = new Set<string>();
  const stranded = strandedJobs(pool, WORKER_ID);
  const bookkeeping = new Set<Promise<unknown>>();
  let refilling: Promise<void> | null = null;
  let lastClaimEmpty = false;
  let lanes = 0;

  const keep = (work: Promise<unknown>, job: HeldJob, settlement: Settlement) => {
    const settled = work.catch((error: unknown) => {
      stranded.add(job, settlement);
      log(
        `outbound worker: ${settlement === "complete" ? "deleting a finished job" : "unlocking a job"} failed ` +
          `(retried at the next lock refresh): ${message(error)}`,
      );
    });
    bookkeeping.add(settled);
    void settled.finally(() => bookkeeping.delete(settled));
  };
  // Finished jobs are deleted together, at most one statement every 20 ms under load: a job that waits a
  // little longer stays locked by this worker (its lock is fresh), for far fewer statements.
  const complete = coalescing<HeldJob, void>(
    async (jobs) => {
      await settleJobs(pool, WORKER_ID, "complete", jobs);
      return jobs.map(() => undefined);
    },
    500,
    COMPLETE_LINGER_MS,
  );

  const finish = (job: HeldJob) => {
    held.delete(job.id);
    // Its unrecorded deliveries are made again once it is unlocked, when the database answers again.
    if (job.failed) stranded.add(job, "unlock");
    else if (job.dropped) keep(settleJobs(pool, WORKER_ID, "release", [job]), job, "release");
    else keep(complete(job), job, "complete");
  };
  const settler = (job: HeldJob) => (recorded: boolean) => {
    if (!recorded) job.failed = true;
    if (--job.unsettled === 0) finish(job);
  };

  const claim = async () => {
    const want = Math.max(1, wanted - buffer.length);
    // Named: prepared once per connection; planning it took as long as running it. Its generic plan is as
    // good as a custom one only because the worker's connections price out sequential scans (worker.ts).
    const { rows } = await pool.query<ClaimedRow>({
      name: "outbound-claim",
      text: CLAIM_SQL,
      values: [WORKER_ID, Math.ceil(want / JOB_CHUNK) + 2, want],
    });
    const jobs = new Map<string, HeldJob>();
    const items: Array<{ item: FeedItem; job: HeldJob }> = [];
    for (const row of rows) {
      let job = jobs.get(row.job_id);
      if (!job) {
        job = {
          id: row.job_id,
          attempts: row.job_attempts,
          revision: row.job_revision,
          unsettled: 0,
          failed: false,
          dropped: false,
        };
        jobs.set(job.id, job);
        held.set(job.id, job);
      }
      if (!row.wanted_id) continue;
      job.unsettled++;
      // A delivery that no longer exists comes back as a row of nulls but for the job and the id.
      const item = {
        deliveryId: row.wanted_id,
        row: row.delivery_id ? (row as Loaded) : null,
        firstAttempts: row.first_attempts,
        settle: settler(job),
      };
      items.push({ item, job });
    }
    for (const job of jobs.values()) if (job.unsettled === 0) finish(job);
    buffer.push(...items);
    lastClaimEmpty = rows.length === 0;
    // A claim that ends after the last lane left (it was started ahead of need) has no one to take it.
    if (lanes === 0) dropBuffered();
  };
  /** Deliveries not yet started go back to the queue: their jobs are unlocked once the started ones are recorded. */
  const dropBuffered = () => {
    for (const { item, job } of buffer.splice(0)) {
      job.dropped = true;
      item.settle(true);
    }
  };
  const refill = () => {
    refilling ??= claim().finally(() => {
      refilling = null;
    });
    return refilling;
  };

  const refresh = setInterval(() => {
    void stranded.retry();
    const ids = [...[...held.values()].filter((job) => !job.failed).map((job) => job.id), ...handed];
    if (ids.length === 0) return;
    pool
      .query({
        name: "outbound-refresh-locks",
        text:
          "UPDATE graphile_worker._private_jobs SET locked_at = now() WHERE id = ANY ($1::bigint[]) AND " +
          "locked_at IS NOT NULL",
        values: [ids],
      })
      // The database is away: the locks age, and the sweep may free them (deliveries are then made again).
      .catch(() => {});
  }, refreshMs);
  refresh.unref();

  return {
    take: async (mayClaim) => {
      for (;;) {
        const item = buffer.shift()?.item;
        if (item) {
          // Claims the next jobs while the buffered deliveries are being attempted, so a lane never waits for one.
          if (mayClaim && !refilling && !lastClaimEmpty && buffer.length < wanted / 2) refill().catch(() => {});
          return item;
        }
        if (!mayClaim) return null;
        await refill();
        if (buffer.length === 0) return null;
      }
    },
    enter: () => {
      lanes++;
    },
    leave: () => {
      if (--lanes === 0) dropBuffered();
    },
    hold: (jobId) => {
      handed.add(jobId);
      return () => handed.delete(jobId);
    },
    close: async () => {
      clearInterval(refresh);
      await refilling?.catch(() => {});
      await Promise.all(bookkeeping);
      await stranded.retry();
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
