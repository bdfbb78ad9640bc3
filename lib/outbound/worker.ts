import "server-only";
import pg from "pg";
import { runLanes } from "./batch";
import { deliveryFeed } from "./feed";
import { deliveryTimeoutMs } from "./post";
import { permits } from "./permits";
import { freeStaleLocks, removeLegacyDeliverJobs, tickCircuits } from "./queue";
import { attemptRecorder } from "./record";
import { startFanOutRelay } from "./relay";
import { directDatabaseUrl } from "@/lib/platform/db/pooler";
import { logger as processLogger } from "@/lib/platform/observability/log";
import { metrics } from "@/lib/platform/observability/metrics";
import { observePool } from "@/lib/platform/observability/pool-metrics";

/*
 * The delivery worker (docs/outbound-webhooks.md, "Workers"): lanes that claim due deliveries from the
 * outbound queue (queue.ts, feed.ts) and attempt them (batch.ts, deliver.ts), on a pool of its own. Any
 * number of workers, in web instances (`npm start`) or alone (`npm run worker`), share the queue: a claim
 * locks each row for the one worker that attempts it. Each worker also runs the fan-out relay (relay.ts),
 * which turns committed messages into deliveries and queue rows, and the circuit tick, which starts the
 * probes of failing subscriptions whose pause is over. All are woken by LISTEN/NOTIFY, so the lag from
 * commit to the first attempt is milliseconds when idle. No delivery is a graphile-worker job.
 */

export type OutboundWorker = { stop: () => Promise<void> };

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

export async function startOutboundWorker(options: WorkerOptions = {}): Promise<OutboundWorker> {
  // A session of its own (LISTEN, startup options), never through a pooler.
  const connectionString = options.connectionString ?? directDatabaseUrl();
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const concurrency = options.concurrency ?? workerConcurrency();
  const log = options.log ?? ((line: string) => processLogger().warn(line));
  const pollMs = options.pollIntervalMs ?? workerPollMs();
  // Twice as many lanes as attempts in flight: while one lane's attempt runs, another already holds the
  // next delivery, so a free attempt never waits for a claim.
  const lanes = 2 * concurrency;
  // The worker's own writes (attempt records, queue bookkeeping) commit without waiting for the disk flush:
  // a crash can lose the last fraction of a second of them, which only means those deliveries are made
  // again, with the same webhook-id, exactly as for a crash between the POST and its record. The fan-out
  // relay commits here too: a lost relay commit loses its deliveries and queue rows and brings back the
  // fan-out rows it deleted, so the next relay creates them again for the same messages (the same webhook-id).
  // Writers' notifications (the outbox) are unaffected: they commit on the writers' own connections.
  const pool = new pg.Pool({
    connectionString,
    // The attempts in flight (loading or skipping a delivery), the batched claim, record and settle
    // statements, the stale-lock sweep, the circuit tick and the fan-out relay (relay.ts): lanes waiting
    // for a claim hold no connection.
    max: concurrency + 5,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // The queue grows from empty to thousands of rows between two ANALYZEs; on such stale statistics the
    // planner answers a claim with a bitmap scan and a sort of every due row, and a record of attempts
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
  // The feed buffers 20 deliveries per attempt in flight, up to 200 (or 4 per attempt in flight when that is
  // more): a claim costs a fixed part (finding and locking rows, a statement, a commit) besides its part per
  // delivery, so larger claims cost less per delivery (docs/outbound-webhooks.md, "Tuning"). What a larger
  // buffer costs is that, with several workers, more deliveries wait in one worker while its attempts wait
  // on slow receivers instead of going to another. The feed refreshes its locks well within the limit.
  const feed = deliveryFeed({
    pool,
    wanted: Math.max(4 * concurrency, Math.min(200, 20 * concurrency)),
    refreshMs: Math.max(250, Math.min(10_000, lockLimit / 4)),
    log,
  });
  let stopped = false;
  const failed = (what: string) => (error: unknown) =>
    log(`outbound worker: ${what} failed (retried): ${error instanceof Error ? error.message : String(error)}`);
  await removeLegacyDeliverJobs(pool).catch(failed("removing the deliver jobs of graphile-worker"));
  const running = runLanes({
    pool,
    feed,
    record: attemptRecorder(pool),
    permits: permits(concurrency),
    lanes,
    pollMs,
    timeoutMs,
    stopping: () => stopped,
    log,
  });

  // A worker that dies mid-delivery (SIGKILL, power loss) leaves its rows locked: every worker frees rows
  // locked longer than OUTBOUND_STALE_LOCK_MS (one attempt never runs longer than its timeout), so the
  // delivery is made again within about a minute (at least once, with the same webhook-id).
  const freeStale = () => freeStaleLocks(pool, lockLimit).catch(failed("freeing stale locks"));
  const sweep = setInterval(() => void freeStale(), Math.max(Math.min(lockLimit / 2, 15_000), 500));
  sweep.unref();
  void freeStale();
  // Circuits whose pause is over get their probe; the tick's NOTIFY wakes the other workers.
  let ticking = false;
  const tick = setInterval(
    () => {
      if (ticking) return;
      ticking = true;
      tickCircuits(pool)
        .then((due) => due > 0 && feed.wake())
        .catch(failed("the circuit tick"))
        .finally(() => (ticking = false));
    },
    Math.min(pollMs, 1_000),
  );
  tick.unref();
  const relay = startFanOutRelay({
    pool,
    connectionString,
    pollMs,
    log,
    onQueued: () => feed.wake(),
    adopter: { workerId: feed.workerId, room: feed.room, adopt: feed.adopt },
  });

  let stopping: Promise<void> | null = null;
  return {
    stop: () => {
      stopping ??= (async () => {
        stopped = true;
        clearInterval(sweep);
        clearInterval(tick);
        await relay.stop();
        feed.wake();
        // Lets running attempts finish (each is bounded by its timeout) and puts back what is not started.
        await running;
        await feed.close();
        await pool.end().catch(() => {});
      })();
      return stopping;
    },
  };
}
