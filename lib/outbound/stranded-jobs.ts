import "server-only";
import type pg from "pg";

/*
 * Jobs a worker's feed (feed.ts) could not settle because the database went away: the record of their
 * attempts failed, or deleting a finished one or unlocking a dropped one did. They stay locked by this
 * worker meanwhile, and each is settled again at every refresh of the feed's locks until the database
 * answers: a finished job deleted, a dropped one unlocked, and one whose record failed unlocked and due
 * after graphile-worker's backoff for a failed job (e^attempts seconds, at most e^10), so its unrecorded
 * deliveries are made again, with the same webhook-id, within seconds rather than after the stale-lock
 * limit (worker.ts).
 *
 * Only while the job is still as this worker claimed it: locked by it, with the same attempts and
 * revision. A job the stale-lock sweep freed meanwhile and a worker claimed again has more attempts; one
 * that a resend replaced (graphile-worker's add_job resets its attempts) has a new revision.
 */

export type ClaimedJob = { id: string; attempts: number; revision: number };
export type StrandedAction = "complete" | "release" | "unlock";

const HELD = "unnest($1::bigint[], $2::int[], $3::int[]) AS held(id, attempts, revision)";
const AS_CLAIMED = "j.id = held.id AND j.attempts = held.attempts AND j.revision = held.revision AND j.locked_by = $4";

const SETTLE_SQL: Record<StrandedAction, string> = {
  complete: `DELETE FROM graphile_worker._private_jobs j USING ${HELD} WHERE ${AS_CLAIMED}`,
  release: `UPDATE graphile_worker._private_jobs j SET locked_at = NULL, locked_by = NULL, attempts = greatest(j.attempts - 1, 0), updated_at = now()
    FROM ${HELD} WHERE ${AS_CLAIMED}`,
  unlock: `UPDATE graphile_worker._private_jobs j
    SET locked_at = NULL, locked_by = NULL, updated_at = now(), last_error = 'recording an attempt failed',
        run_at = greatest(j.run_at, now()) + exp(least(j.attempts, 10)) * interval '1 second'
    FROM ${HELD} WHERE ${AS_CLAIMED}`,
};

export type StrandedJobs = {
  add: (job: ClaimedJob, action: StrandedAction) => void;
  /** One statement per kind; what the database took is forgotten, the rest is tried again next time. */
  retry: () => Promise<void>;
};

export function strandedJobs(pool: pg.Pool, workerId: string): StrandedJobs {
  const stranded = new Map<string, { job: ClaimedJob; action: StrandedAction }>();
  let retrying: Promise<void> | null = null;
  const settle = async () => {
    const entries = [...stranded.values()];
    for (const action of Object.keys(SETTLE_SQL) as StrandedAction[]) {
      const group = entries.filter((entry) => entry.action === action);
      if (group.length === 0) continue;
      const jobs = group.map((entry) => entry.job);
      await pool.query(SETTLE_SQL[action], [jobs.map((job) => job.id), jobs.map((job) => job.attempts), jobs.map((job) => job.revision), workerId]);
      for (const entry of group) if (stranded.get(entry.job.id) === entry) stranded.delete(entry.job.id);
    }
  };
  return {
    add: (job, action) => void stranded.set(job.id, { job, action }),
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
