import "server-only";
import crypto from "node:crypto";
import type pg from "pg";
import { coalescing } from "./coalesce";
import type { Loaded } from "./deliver";
import { claimDue, settleRows, type ClaimedRow, type QueueKey, type Settlement } from "./queue";

/*
 * A worker's feed of due deliveries (docs/outbound-webhooks.md, "Workers"). Its delivery lanes (batch.ts)
 * take deliveries from a buffer; when it runs low, one statement claims the next due rows of the queue
 * (queue.ts) and loads every delivery they name. A claimed row is locked for this worker until its attempt
 * is recorded (record.ts takes it off the queue or parks it) or it is settled here: taken off the queue
 * when there was nothing to attempt, put back when it was not started. While held, its lock is refreshed,
 * so the stale-lock sweep (worker.ts) frees only the rows of a worker that died (their deliveries are then
 * made again, with the same webhook-id). A row whose settlement failed (the database was away) stays
 * locked by this worker and is settled again at every refresh until the database answers.
 */

const SETTLE_LINGER_MS = 20;
/**
 * The relay's new deliveries the feed takes at most: about a second of its lanes' pace when busy (at least
 * what a claim asks for), so that what it holds is soon attempted and other workers are not kept from a
 * backlog of slow receivers; capped for memory.
 */
const ADOPT_SECONDS = 1;
const MAX_ADOPTED = 5_000;

/** What became of a delivery the feed handed out. */
export type Outcome = "recorded" | "done" | "release" | "failed";

/**
 * A delivery to attempt; `settle` says what became of it. `claimedAt` is when the claim that loaded it started:
 * its row shows the circuit as it was then.
 */
export type FeedItem = { key: QueueKey; row: Loaded | null; claimedAt: number; settle: (outcome: Outcome) => void };

export type DeliveryFeed = {
  /** The next delivery: buffered, or from a new claim; null when none is due (after waiting up to `waitMs`). */
  take: (waitMs: number) => Promise<FeedItem | null>;
  /** New rows are due: a waiting take claims at once. */
  wake: () => void;
  /** How many of its relay's new deliveries the feed would take now: a whole number, 0 once closed. */
  room: () => number;
  /** Rows locked for this feed by its worker's relay (relay.ts), taken as a claim's rows. */
  adopt: (rows: ClaimedRow[], claimedAt: number) => void;
  /** Puts back what is buffered, waits for the settlements under way and stops refreshing locks. */
  close: () => Promise<void>;
};

export type FeedOptions = { pool: pg.Pool; wanted: number; refreshMs: number; log: (line: string) => void };

export const feedWorkerId = () => `outbound-${process.pid}-${crypto.randomBytes(6).toString("hex")}`;

export function deliveryFeed({ pool, wanted, refreshMs, log }: FeedOptions): DeliveryFeed & { workerId: string } {
  const workerId = feedWorkerId();
  const buffer: FeedItem[] = [];
  const held = new Map<string, QueueKey>();
  const stranded = new Map<string, { key: QueueKey; settlement: Settlement }>();
  const bookkeeping = new Set<Promise<unknown>>();
  let refilling: Promise<void> | null = null;
  let lastClaimEmpty = false;
  let closed = false;
  const waiters = new Set<() => void>();
  // The lanes' pace when they have work: deliveries handed out per second, counting only the time during
  // which the buffer never ran dry (waiting for new rows says nothing of how fast they are attempted).
  const pace = { count: 0, busyMs: 0, last: 0, suppliedSince: false, perSecond: 0 };
  const paced = () => {
    const now = Date.now();
    if (pace.suppliedSince) {
      pace.count++;
      pace.busyMs += now - pace.last;
    }
    pace.last = now;
    pace.suppliedSince = buffer.length > 0;
    if (pace.busyMs < 1_000) return;
    pace.perSecond = (pace.count * 1_000) / pace.busyMs;
    pace.count = 0;
    pace.busyMs = 0;
  };

  // Rows settled together, at most one statement of each kind every 20 ms under load.
  const settlers = {
    done: coalescing<QueueKey, void>(
      (keys) => settleRows(pool, workerId, "done", keys).then(() => keys.map(() => {})),
      500,
      SETTLE_LINGER_MS,
    ),
    release: coalescing<QueueKey, void>(
      (keys) => settleRows(pool, workerId, "release", keys).then(() => keys.map(() => {})),
      500,
      SETTLE_LINGER_MS,
    ),
  };
  const settleLater = (key: QueueKey, settlement: Settlement) => stranded.set(key.deliveryId, { key, settlement });
  const settle = (key: QueueKey, settlement: "done" | "release") => {
    const work = settlers[settlement](key).catch((error: unknown) => {
      settleLater(key, settlement);
      log(`outbound worker: settling a queue row failed (retried at the next lock refresh): ${message(error)}`);
    });
    bookkeeping.add(work);
    void work.finally(() => bookkeeping.delete(work));
  };

  const itemOf = (key: QueueKey, row: Loaded | null, claimedAt: number): FeedItem => {
    let settled = false;
    return {
      key,
      row,
      claimedAt,
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        held.delete(key.deliveryId);
        if (outcome === "done" || outcome === "release") settle(key, outcome);
        // The record failed: the row is put back (its delivery made again) once the database answers.
        else if (outcome === "failed") settleLater(key, "release");
      },
    };
  };

  const hold = (rows: ClaimedRow[], claimedAt: number) => {
    for (const row of rows) {
      const key = { accountId: row.queue_account_id, deliveryId: row.wanted_id };
      held.set(key.deliveryId, key);
      // A delivery that no longer exists comes back as a row of nulls but for its key.
      buffer.push(itemOf(key, row.delivery_id ? (row as unknown as Loaded) : null, claimedAt));
    }
  };
  const claim = async () => {
    for (;;) {
      const claimedAt = Date.now();
      const { rows, parked } = await claimDue(pool, workerId, Math.max(1, wanted - buffer.length));
      hold(rows, claimedAt);
      lastClaimEmpty = rows.length === 0;
      // A claim that parked rows behind open circuits and took none looks again at once.
      if (rows.length > 0 || parked === 0 || closed) break;
    }
    // A claim that ends after the feed closed has no one to take it.
    if (closed) putBack();
  };
  const putBack = () => {
    for (const item of buffer.splice(0)) item.settle("release");
  };
  const refill = () => {
    refilling ??= claim().finally(() => {
      refilling = null;
    });
    return refilling;
  };

  const wake = () => {
    lastClaimEmpty = false;
    for (const done of [...waiters]) done();
  };

  const retryStranded = async () => {
    for (const settlement of ["done", "release"] as const) {
      const group = [...stranded.values()].filter((entry) => entry.settlement === settlement);
      if (group.length === 0) continue;
      try {
        await settleRows(
          pool,
          workerId,
          settlement,
          group.map((entry) => entry.key),
        );
        for (const entry of group)
          if (stranded.get(entry.key.deliveryId) === entry) stranded.delete(entry.key.deliveryId);
      } catch {
        return; // Still away: tried again at the next refresh.
      }
    }
  };
  const refresh = setInterval(() => {
    void retryStranded();
    const keys = [...held.values()];
    // The database is away: the locks age, and the sweep may free them (deliveries are then made again).
    if (keys.length > 0) settleRows(pool, workerId, "refresh", keys).catch(() => {});
  }, refreshMs);
  refresh.unref();

  return {
    workerId,
    take: async (waitMs) => {
      for (let waited = false; ; waited = true) {
        const item = buffer.shift();
        if (item) {
          paced();
          // Claims the next rows while the buffered ones are being attempted, so a lane never waits for one.
          if (!refilling && !lastClaimEmpty && buffer.length < wanted / 2) refill().catch(() => {});
          return item;
        }
        if (closed) return null;
        await refill();
        if (buffer.length > 0) continue;
        if (waited || closed) return null;
        // Nothing due: waits for a wake-up (new rows, a probe) or the poll.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, waitMs);
          waiters.add(done);
        });
      }
    },
    wake,
    room: () =>
      closed
        ? 0
        : Math.max(
            0,
            Math.floor(Math.max(wanted, Math.min(MAX_ADOPTED, pace.perSecond * ADOPT_SECONDS)) - buffer.length),
          ),
    adopt: (rows, claimedAt) => {
      hold(rows, claimedAt);
      if (closed) putBack();
      wake();
    },
    close: async () => {
      closed = true;
      clearInterval(refresh);
      for (const done of [...waiters]) done();
      await refilling?.catch(() => {});
      putBack();
      await Promise.all(bookkeeping);
      await retryStranded();
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
