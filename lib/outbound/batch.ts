import "server-only";
import { attemptDelivery, loadDeliveries, type Attempted, type DeliverOptions, type JobPayload } from "./deliver";
import type { FeedItem, JobFeed } from "./feed";
import type { Permits } from "./permits";

/*
 * A "deliver" task that keeps going while work is due: besides the deliveries of the job graphile-worker
 * handed out, it runs `lanes` lanes, each of which takes the next due delivery from the worker's feed
 * (feed.ts), attempts it and goes on while the attempt is recorded (record.ts). A slow receiver holds up
 * one lane, not the others. Lanes stop taking new jobs after `maxRunMs` (graphile-worker's job for the
 * task stays locked meanwhile; the feed keeps its lock fresh) but finish the deliveries already claimed.
 */

export type LaneOptions = DeliverOptions & {
  lanes: number;
  feed: JobFeed;
  /** One per attempt in flight, shared by the worker's lanes: its concurrency. */
  permits: Permits;
  /** Stop claiming once the task has run this long. */
  maxRunMs: number;
  /** Stop at once (the worker is stopping). */
  stopping: () => boolean;
};

/**
 * Attempts of a task waiting for their record at most before its lanes wait too: bounds memory and lock
 * time. Twice a full record batch (record.ts), so lanes do not wait while one batch gathers; per task,
 * so a worker (two tasks at a time) holds up to twice as many.
 */
const MAX_UNRECORDED = 400;

/**
 * The task's own deliveries, then lanes that take due deliveries until none is left or time is up. The
 * task ends only when every attempt it made is recorded, its own included (graphile-worker then completes
 * the task's job: a delivery is never left without a record or a job).
 */
export async function deliverWithLanes(job: { id: string; payload: JobPayload }, options: LaneOptions): Promise<void> {
  const started = Date.now();
  const unhold = options.feed.hold(job.id);
  const unrecorded = new Set<Promise<void>>();
  const failures: unknown[] = [];
  const track = ({ recorded }: Attempted, settle?: FeedItem["settle"]) => {
    const settled: Promise<void> = recorded
      .then(
        () => settle?.(true),
        (error: unknown) => {
          failures.push(error);
          settle?.(false);
        },
      )
      .finally(() => unrecorded.delete(settled));
    unrecorded.add(settled);
  };
  const own: Array<Omit<FeedItem, "settle">> = [];
  const healthy = () => !options.stopping() && failures.length === 0;
  const lane = async () => {
    options.feed.enter();
    try {
      while (healthy()) {
        if (unrecorded.size >= MAX_UNRECORDED) {
          await Promise.race(unrecorded);
          continue;
        }
        const mine = own.shift();
        if (mine) {
          track(await options.permits(() => attemptDelivery(mine.deliveryId, mine.row, options, mine.firstAttempts)));
          continue;
        }
        const item = await options.feed.take(Date.now() - started < options.maxRunMs);
        if (!item) return;
        try {
          track(
            await options.permits(() => attemptDelivery(item.deliveryId, item.row, options, item.firstAttempts)),
            item.settle,
          );
        } catch (error) {
          item.settle(false);
          throw error;
        }
      }
    } finally {
      options.feed.leave();
    }
  };
  try {
    const rows = await loadDeliveries(options.pool, job.payload.ids);
    own.push(
      ...job.payload.ids.map((deliveryId, index) => ({
        deliveryId,
        row: rows[index],
        firstAttempts: job.payload.firstAttempts,
      })),
    );
    const results = await Promise.allSettled(Array.from({ length: Math.max(1, options.lanes) }, lane));
    await Promise.all(unrecorded);
    // Every lane and record has finished before a failure is reported, so nothing runs on after the task ends.
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    if (failures.length > 0) throw failures[0];
    // Stopping before the job's own deliveries were all attempted: graphile-worker runs the job again.
    if (own.length > 0)
      throw new Error(`the worker stopped before ${own.length} of the job's deliveries were attempted`);
  } finally {
    unhold();
  }
}
