import "server-only";
import { Logger, run, type Runner, type Task, type WorkerEvents } from "graphile-worker";
import { EventEmitter } from "node:events";
import pg from "pg";
import { deliverWithLanes } from "./batch";
import { DELIVER_TASK, parseJobPayload } from "./deliver";
import { jobFeed } from "./feed";
import { deliveryTimeoutMs } from "./post";
import { permits } from "./permits";
import { attemptRecorder } from "./record";
import { startFanOutRelay } from "./relay";
import { directDatabaseUrl } from "@/lib/platform/db/pooler";
import { logger as processLogger } from "@/lib/platform/observability/log";
import { metrics } from "@/lib/platform/observability/metrics";
import { observePool } from "@/lib/platform/observability/pool-metrics";

/*
 * The delivery worker: graphile-worker running the "deliver" task (deliver.ts) on a pool of its own.
 * Any number of workers, in web instances (`npm start`) or alone (`npm run worker`), share the queue:
 * graphile-worker locks each job for the one worker that runs it. Each worker also runs the fan-out relay
 * (relay.ts), which turns committed messages into deliveries and their jobs. Both are woken by
 * LISTEN/NOTIFY, so the lag from commit to the first attempt is milliseconds when idle.
 *
 * A worker that dies mid-delivery (SIGKILL, power loss) leaves its job locked; graphile-worker frees such
 * jobs only after 4 hours. Since one attempt never runs longer than its timeout, every worker also frees
 * "deliver" jobs locked for longer than OUTBOUND_STALE_LOCK_MS (default: the timeout plus 45 s), so the
 * delivery is retried within about a minute (at least once, with the same webhook-id).
 *
 * graphile-worker 0.16 retires a worker slot for good when it cannot mark a job done (the database went
 * away at that moment) and does not replace it; after a few outages nothing would run. So a slot's fatal
 * error restarts the whole runner here, once the database answers again.
 */

export type OutboundWorker = { stop: () => Promise<void>; restarts: () => number };

export type WorkerOptions = {
  connectionString?: string;
  concurrency?: number;
  pollIntervalMs?: number;
  staleLockMs?: number;
  log?: (line: string) => void;
};

export function workerConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.OUTBOUND_WORKER_CONCURRENCY);
  return Number.isInteger(value) && value > 0 ? value : 10;
}

// How often an idle worker looks for due jobs it was not woken for (docs/outbound-webhooks.md, "Workers").
export function workerPollMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.OUTBOUND_WORKER_POLL_MS);
  return Number.isInteger(value) && value >= 50 ? value : 1_000;
}

function staleLockMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.OUTBOUND_STALE_LOCK_MS);
  return Number.isFinite(value) && value > 0 ? value : deliveryTimeoutMs(env) + 45_000;
}

// graphile-worker's own tables, as its reset of stale locks (4 hours) writes them.
const FREE_STALE_LOCKS_SQL = `UPDATE graphile_worker._private_jobs
  SET locked_at = NULL, locked_by = NULL, run_at = greatest(run_at, now())
  WHERE locked_at < now() - $1::int * interval '1 millisecond'
    AND task_id IN (SELECT id FROM graphile_worker._private_tasks WHERE identifier = '${DELIVER_TASK}')`;

export async function startOutboundWorker(options: WorkerOptions = {}): Promise<OutboundWorker> {
  // A session of its own (LISTEN, startup options, graphile-worker), never through a pooler.
  const connectionString = options.connectionString ?? directDatabaseUrl();
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const concurrency = options.concurrency ?? workerConcurrency();
  const log = options.log ?? ((line: string) => processLogger().warn(line));
  // `concurrency` attempts at most at any time: a few graphile-worker slots, each running lanes (batch.ts).
  // Two slots, so a new job is picked up at once even while one slot's lanes wait on a slow receiver.
  // Twice as many lanes as attempts in flight: while one lane's attempt runs, another already holds the
  // next job, so a free attempt never waits for a claim.
  const slots = Math.min(concurrency, 2);
  const lanes = Math.ceil((2 * concurrency) / slots);
  // The worker's own writes (attempt records, job bookkeeping) commit without waiting for the disk flush:
  // a crash can lose the last fraction of a second of them, which only means those deliveries are made
  // again, with the same webhook-id, exactly as for a crash between the POST and its record. The fan-out
  // relay commits here too: a lost relay commit loses its deliveries and jobs and brings back the queued
  // rows it deleted, so the next relay creates them again for the same messages (the same webhook-id).
  // Writers' notifications (the outbox) are unaffected: they commit on the writers' own connections.
  const pool = new pg.Pool({
    connectionString,
    // graphile-worker's slots, the attempts in flight (loading or skipping a delivery), and the batched
    // claim and record statements, the stale-lock sweep and the fan-out relay (relay.ts): lanes waiting
    // for a claim hold no connection.
    max: slots + concurrency + 4,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // The job queue grows from empty to thousands of rows between two ANALYZEs; on such stale statistics
    // the planner answers a claim with a bitmap scan and a sort of every due job, and a record of attempts
    // with a sequential scan of every delivery (docs/outbound-webhooks.md, "Tuning"). The worker's
    // statements are all key lookups and index walks: no bitmap or sequential scans (both stay possible
    // where no index serves, only priced out).
    options: "-c synchronous_commit=off -c enable_bitmapscan=off -c enable_seqscan=off",
  });
  // A dropped connection (database restart) must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  observePool(metrics(), "worker", () => pool);

  const lockLimit = options.staleLockMs ?? staleLockMs();
  // Read once, not on every attempt of a burst.
  const timeoutMs = deliveryTimeoutMs();
  // A task's lanes stop claiming after a while, so that its own job (locked, its lock kept fresh by the
  // feed) is completed now and then under a long burst rather than held to the end of it.
  const maxRunMs = Math.min(10_000, Math.max(0, (lockLimit - timeoutMs) / 2));
  // Shared by every lane of this worker, so their claims and records are batched together. The feed
  // buffers 20 deliveries per attempt in flight, up to 200 (or 4 per attempt in flight when that is
  // more): a claim costs a fixed part (finding and locking jobs, a statement, a commit) besides its part
  // per delivery, so larger claims cost less per delivery (docs/outbound-webhooks.md, "Tuning"). Attempts in flight
  // stay bounded by `concurrency`; what a larger buffer costs is that, with several workers, more deliveries wait in
  // one worker while its attempts wait on slow receivers (each at most its timeout) instead of going to another, hence
  // the bound per attempt in flight. The feed refreshes the locks of the jobs it holds well within the stale-lock
  // limit.
  const feed = jobFeed({
    pool,
    wanted: Math.max(4 * concurrency, Math.min(200, 20 * concurrency)),
    refreshMs: Math.max(250, Math.min(10_000, lockLimit / 4)),
    log,
  });
  const record = attemptRecorder(pool, DELIVER_TASK);
  const attempts = permits(concurrency);
  const task: Task = async (payload, helpers) => {
    const parsed = parseJobPayload(payload);
    if (!parsed) return;
    await deliverWithLanes(
      { id: String(helpers.job.id), payload: parsed },
      { pool, feed, record, permits: attempts, lanes, maxRunMs, timeoutMs, stopping: () => stopped },
    );
  };
  const logger = new Logger(() => (level, message) => {
    if (level === "error" || level === "warning") log(`outbound worker: ${message}`);
  });
  const events: WorkerEvents = new EventEmitter();
  // The current runner's graphile-worker workers: after a restart, the jobs they still hold are unlocked.
  let workerIds: string[] = [];
  events.on("worker:create", ({ worker }) => void workerIds.push(worker.workerId));
  let runner: Runner | null = null;
  let stopped = false;
  let restarting: Promise<void> | null = null;
  let restarts = 0;
  const launch = async () => {
    runner = await run({
      pgPool: pool,
      concurrency: slots,
      noHandleSignals: true,
      pollInterval: options.pollIntervalMs ?? workerPollMs(),
      taskList: { [DELIVER_TASK]: task },
      logger,
      events,
    });
    runner.promise.catch(() => restart());
  };
  // The worker that failed to mark its job done (the database went away) left it locked under its id, and
  // graphile-worker would free it only after 4 hours, the stale-lock sweep after OUTBOUND_STALE_LOCK_MS.
  // Those workers are gone once their runner has stopped, so their jobs are unlocked as soon as the
  // database answers again: the deliveries are retried at once (with the same webhook-id).
  const unlockAbandoned = async (ids: string[]) => {
    if (ids.length === 0) return;
    await pool.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [ids]).catch((error: unknown) => {
      log(
        `outbound worker: unlocking the jobs of stopped workers failed (the stale-lock sweep frees them): ` +
          `${error instanceof Error ? error.message : String(error)}`,
      );
    });
  };
  const restart = () => {
    if (stopped) return;
    restarting ??= (async () => {
      restarts++;
      await runner?.stop().catch(() => {});
      runner = null;
      const abandoned = workerIds;
      workerIds = [];
      while (!stopped) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        if (stopped) break;
        try {
          await launch();
          // Not awaited: a fatal error of the new runner meanwhile must find `restarting` cleared.
          void unlockAbandoned(abandoned);
          break;
        } catch (error) {
          log(`outbound worker: restart failed (retrying): ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      restarting = null;
    })();
  };
  events.on("worker:fatalError", () => restart());
  await launch();

  const freeStaleLocks = () =>
    pool.query(FREE_STALE_LOCKS_SQL, [Math.round(lockLimit)]).catch((error: unknown) => {
      log(
        `outbound worker: freeing stale locks failed (retried): ` +
          `${error instanceof Error ? error.message : String(error)}`,
      );
    });
  const sweep = setInterval(() => void freeStaleLocks(), Math.max(Math.min(lockLimit / 2, 15_000), 500));
  sweep.unref();
  void freeStaleLocks();
  const relay = startFanOutRelay({ pool, connectionString, pollMs: options.pollIntervalMs ?? workerPollMs(), log });

  let stopping: Promise<void> | null = null;
  return {
    restarts: () => restarts,
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(sweep);
        await relay.stop();
        await restarting;
        // Lets running attempts finish (each is bounded by its timeout) and releases the queue's locks.
        await runner?.stop().catch(() => {});
        await feed.close();
        await pool.end().catch(() => {});
      })();
      return stopping;
    },
  };
}
