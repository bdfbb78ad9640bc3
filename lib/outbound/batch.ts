import "server-only";
import { attemptDelivery, type Attempted, type DeliverOptions } from "./deliver";
import type { DeliveryFeed, FeedItem } from "./feed";
import type { Permits } from "./permits";

/*
 * A worker's delivery lanes (docs/outbound-webhooks.md, "Workers"): each takes the next due delivery from
 * the worker's feed (feed.ts), attempts it and goes on while the attempt is recorded (record.ts). A slow
 * receiver holds up one lane, not the others. An attempt that failed opens its subscription's circuit:
 * the lanes then put back, unattempted, the deliveries of that subscription they had already claimed
 * (their rows are parked behind the circuit), rather than sending them to a receiver known to be failing.
 */

export type LaneOptions = DeliverOptions & {
  lanes: number;
  feed: DeliveryFeed;
  /** One per attempt in flight, shared by the worker's lanes: its concurrency. */
  permits: Permits;
  /** How long an idle lane waits for a wake-up before it looks for due deliveries again. */
  pollMs: number;
  stopping: () => boolean;
  log: (line: string) => void;
};

/**
 * Attempts waiting for their record at most before the lanes wait too: bounds memory and lock time. Twice a
 * full record batch (record.ts), so lanes do not wait while one batch gathers.
 */
const MAX_UNRECORDED = 400;

/** Runs the lanes until `stopping()`; resolves once every attempt they made is recorded. */
export async function runLanes(options: LaneOptions): Promise<void> {
  const unrecorded = new Set<Promise<void>>();
  // Subscriptions whose attempt here just failed: that attempt's record, and when it was committed. A delivery
  // claimed before then was loaded with the circuit closed: it is held back. One claimed after shows the
  // circuit as it is (the claim parks what an open circuit holds), so it is attempted.
  const paused = new Map<string, { recorded: Promise<unknown>; recordedAt: number | null }>();
  const track = (item: FeedItem, { recorded, pauseMs }: Attempted) => {
    const settled: Promise<void> = recorded
      .then(
        (outcome) => item.settle(outcome === "skipped" ? "done" : "recorded"),
        (error: unknown) => {
          item.settle("failed");
          options.log(`outbound worker: recording an attempt failed (it is made again): ${message(error)}`);
        },
      )
      .finally(() => unrecorded.delete(settled));
    unrecorded.add(settled);
    if (pauseMs !== null && item.row) {
      const pause = { recorded, recordedAt: null as number | null };
      paused.set(item.row.subscription_id, pause);
      void recorded.finally(() => (pause.recordedAt = Date.now())).catch(() => {});
    }
  };
  const heldBack = (item: FeedItem) => {
    if (!item.row || item.row.probe || item.row.subscription_status !== "active") return null;
    const pause = paused.get(item.row.subscription_id);
    if (!pause) return null;
    if (pause.recordedAt !== null && item.claimedAt > pause.recordedAt) {
      paused.delete(item.row.subscription_id);
      return null;
    }
    return pause;
  };
  const lane = async () => {
    while (!options.stopping()) {
      if (unrecorded.size >= MAX_UNRECORDED) {
        await Promise.race(unrecorded);
        continue;
      }
      let item: FeedItem | null;
      try {
        item = await options.feed.take(options.pollMs);
      } catch (error) {
        // The database is away: the lanes look again after the poll interval.
        options.log(`outbound worker: claiming deliveries failed (retried): ${message(error)}`);
        await new Promise((resolve) => setTimeout(resolve, options.pollMs));
        continue;
      }
      if (!item) continue;
      const pause = heldBack(item);
      if (pause) {
        // Put back once the failure is recorded, so that the circuit is open and the row is parked.
        await pause.recorded.catch(() => {});
        item.settle("release");
        continue;
      }
      try {
        const claimed = item;
        track(claimed, await options.permits(() => attemptDelivery(claimed.key.deliveryId, claimed.row, options)));
      } catch (error) {
        item.settle("release");
        options.log(`outbound worker: an attempt failed before it was sent (retried): ${message(error)}`);
        await new Promise((resolve) => setTimeout(resolve, options.pollMs));
      }
    }
  };
  await Promise.allSettled(Array.from({ length: Math.max(1, options.lanes) }, lane));
  await Promise.all(unrecorded);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
