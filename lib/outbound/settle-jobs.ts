import "server-only";
import type pg from "pg";

/*
 * What becomes of a job a worker's feed (feed.ts) claimed, once its deliveries are done with: deleted
 * when every one was attempted and recorded ("complete"), put back when the worker dropped the ones it
 * had not started ("release"), or put back after graphile-worker's backoff for a failed job (e^attempts
 * seconds, at most e^10) when an attempt's record failed ("unlock"): its unrecorded deliveries are then
 * made again, with the same webhook-id.
 *
 * Each applies only to a job still as this worker claimed it: locked by it, and the same revision (a
 * resend's add_job replaces an unlocked job's payload and bumps it). Putting a job back also needs the
 * same attempts: a claim adds one, so a job the stale-lock sweep freed and a worker claimed again is not
 * unlocked under that worker. Deleting does not: add_job for the key of a job a worker holds (a retry
 * recorded by that job's own attempt) sets its attempts to max_attempts so it never runs again, and that
 * job is still deleted once its deliveries are recorded.
 *
 * When the database is away, a job the feed could not settle stays locked by this worker, and
 * `strandedJobs` settles it again at every refresh of the feed's locks until the database answers:
 * within seconds of its return rather than after the stale-lock limit (worker.ts).
 */

export type ClaimedJob = { id: string; attempts: number; revision: number };
export type Settlement = "complete" | "release" | "unlock";

const HELD = "unnest($1::bigint[], $2::int[], $3::int[]) AS held(id, attempts, revision)";
const AS_CLAIMED = "j.id = held.id AND j.revision = held.revision AND j.locked_by = $4";

const SETTLE_SQL: Record<Settlement, string> = {
  complete: `DELETE FROM graphile_worker._private_jobs j USING ${HELD} WHERE ${AS_CLAIMED}`,
  release: `UPDATE graphile_worker._private_jobs j SET locked_at = NULL, locked_by = NULL, attempts =
    greatest(j.attempts - 1, 0), updated_at = now()
    FROM ${HELD} WHERE ${AS_CLAIMED} AND j.attempts = held.attempts`,
  unlock: `UPDATE graphile_worker._private_jobs j
    SET locked_at = NULL, locked_by = NULL, updated_at = now(), last_error = 'recording an attempt failed',
        run_at = greatest(j.run_at, now()) + exp(least(j.attempts, 10)) * interval '1 second'
    FROM ${HELD} WHERE ${AS_CLAIMED} AND j.attempts = held.attempts`,
};

export async function settleJobs(
  pool: pg.Pool,
  workerId: string,
  settlement: Settlement,
  jobs: ClaimedJob[],
): Promise<void> {
  // Named: prepared once per connection (deleting finished jobs runs all through a burst).
  await pool.query({
    name: `outbound-settle-${settlement}`,
    text: SETTLE_SQL[settlement],
    values: [jobs.map((job) => job.id), jobs.map((job) => job.attempts), jobs.map((job) => job.revision), workerId],
  });
}

export type StrandedJobs = {
  add: (job: ClaimedJob, settlement: Settlement) => void;
  /** One statement per kind; what the database took is forgotten, the rest is tried again next time. */
  retry: () => Promise<void>;
};

export function strandedJobs(pool: pg.Pool, workerId: string): StrandedJobs {
  const stranded = new Map<string, { job: ClaimedJob; settlement: Settlement }>();
  let retrying: Promise<void> | null = null;
  const settle = async () => {
    const entries = [...stranded.values()];
    for (const settlement of Object.keys(SETTLE_SQL) as Settlement[]) {
      const group = entries.filter((entry) => entry.settlement === settlement);
      if (group.length === 0) continue;
      await settleJobs(
        pool,
        workerId,
        settlement,
        group.map((entry) => entry.job),
      );
      for (const entry of group) if (stranded.get(entry.job.id) === entry) stranded.delete(entry.job.id);
    }
  };
  return {
    add: (job, settlement) => void stranded.set(job.id, { job, settlement }),
    retry: () => {
      if (stranded.size === 0) return Promise.resolve();
      retrying ??= settle()
        .catch(() => {}) // Still away: tried again at the next refresh.
        .finally(() => {
          retrying = null;
        });
      return retrying;
    },
  };
}
