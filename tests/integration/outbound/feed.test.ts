import type pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { attemptDelivery } from "@/lib/outbound/deliver";
import { jobFeed, type FeedItem, type JobFeed } from "@/lib/outbound/feed";
import { resendDelivery } from "@/lib/outbound/manage";
import { attemptRecorder } from "@/lib/outbound/record";
import { deliveries, fanOut, notify, queuedJobs, startReceiver, subscribedAccount, waitFor } from "./support";

/*
 * A worker's feed (lib/outbound/feed.ts) claims a chunk job of the fan-out relay and hands out its
 * deliveries one by one; the job's fate follows what became of them. No worker runs in this file: the
 * tests take the deliveries themselves.
 */

type JobRow = { id: string; locked_at: Date | null; locked_by: string | null; attempts: number };

const jobRow = async (id: string): Promise<JobRow | undefined> =>
  (
    await db.pool.query<JobRow>(
      "SELECT id::text, locked_at, locked_by, attempts FROM graphile_worker._private_jobs WHERE id = $1::bigint",
      [id],
    )
  ).rows[0];

let feed: JobFeed;
const logged: string[] = [];

const emptyQueue = () =>
  db.pool.query(
    "DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM " +
      "graphile_worker._private_tasks WHERE identifier = 'deliver')",
  );

// Jobs left by earlier files would be claimed first, and the jobs of these tests (to receivers that do not
// exist) must not keep the workers of later files busy. Notifications earlier files committed but no worker
// relayed are fanned out first: otherwise a test's own fan-out would queue their jobs next to its chunk.
beforeEach(async () => {
  await fanOut();
  await emptyQueue();
});
afterAll(emptyQueue);
afterEach(async () => {
  await feed?.close();
});

/** A chunk job of three first attempts, as the relay queues it; answers its deliveries and its job id. */
async function chunkOfThree() {
  const { accountId, subscriptionId } = await subscribedAccount();
  for (let i = 0; i < 3; i++) await notify(accountId, "lead.created", { id: `lead_feed_${i}` });
  const rows = await deliveries(subscriptionId);
  const jobs = await queuedJobs(rows.map((row) => row.id));
  expect(new Set(jobs.map((job) => job.job_id)).size).toBe(1);
  return { accountId, subscriptionId, deliveryIds: rows.map((row) => row.id), jobId: jobs[0].job_id };
}

async function takeAll(count: number): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  for (let i = 0; i < count; i++) items.push((await feed.take(true))!);
  return items;
}

describe("a worker's feed of deliveries", () => {
  it("hands out every delivery of a claimed chunk, locked for this worker, and deletes the job when done", async () => {
    const { deliveryIds, jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 60_000, log: (line) => logged.push(line) });
    feed.enter();
    const items = await takeAll(3);
    expect(items.map((item) => item.deliveryId).sort()).toEqual([...deliveryIds].sort());
    expect(items.every((item) => item.firstAttempts && item.row?.delivery_status === "pending")).toBe(true);
    expect(await jobRow(jobId)).toMatchObject({ attempts: 1, locked_by: expect.stringMatching(/^outbound-lanes-/) });
    expect(await feed.take(true)).toBeNull();

    items[0].settle(true);
    items[1].settle(true);
    expect(await jobRow(jobId)).toBeDefined();
    items[2].settle(true);
    await waitFor(async () => (await jobRow(jobId)) === undefined, 5_000, "the job deleted");
    feed.leave();
  });

  it("puts the job back, unlocked, attempts restored, when the last lane stops before it all starts", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 60_000, log: (line) => logged.push(line) });
    feed.enter();
    const [started] = await takeAll(1);
    feed.leave();
    // The started delivery is still being attempted: the job stays locked until it is recorded.
    expect((await jobRow(jobId))?.locked_at).not.toBeNull();
    started.settle(true);
    await waitFor(async () => (await jobRow(jobId))?.locked_at === null, 5_000, "the job unlocked");
    expect(await jobRow(jobId)).toMatchObject({ attempts: 0, locked_by: null });
  });

  it("puts back, at once, the jobs of a claim that ends after the last lane left", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 60_000, log: (line) => logged.push(line) });
    feed.enter();
    // As a claim started ahead of need: under way when the lane leaves.
    const taking = feed.take(true);
    feed.leave();
    expect(await taking).toBeNull();
    await waitFor(async () => (await jobRow(jobId))?.locked_at === null, 5_000, "the job unlocked");
    expect(await jobRow(jobId)).toMatchObject({ attempts: 0, locked_by: null });
  });

  it("puts a job whose record failed back at its next refresh, due after graphile-worker's backoff", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 100, log: (line) => logged.push(line) });
    feed.enter();
    const items = await takeAll(3);
    items[0].settle(false);
    items[1].settle(true);
    items[2].settle(true);
    feed.leave();
    await waitFor(async () => (await jobRow(jobId))?.locked_at === null, 5_000, "the failed job unlocked");
    const { rows } = await db.pool.query<{ due_in: number; last_error: string }>(
      "SELECT extract(epoch FROM run_at - now())::float AS due_in, " +
        "last_error FROM graphile_worker._private_jobs WHERE id = $1::bigint",
      [jobId],
    );
    // e^1 seconds after its first attempt, as graphile-worker schedules a failed job.
    expect(rows[0].due_in).toBeGreaterThan(2);
    expect(rows[0].due_in).toBeLessThan(2.75);
    expect(rows[0].last_error).toBe("recording an attempt failed");
    expect((await jobRow(jobId))?.attempts).toBe(1);
  });

  it.each([
    ["claimed again since (more attempts)", "attempts = attempts + 1", { attempts: 2 }],
    ["replaced by a resend and claimed again since (a new revision)", "revision = revision + 1", { attempts: 1 }],
  ])("does not unlock a failed job that was %s", async (_, change, expected) => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 100, log: (line) => logged.push(line) });
    feed.enter();
    const items = await takeAll(3);
    // As if the stale-lock sweep had freed it while the database was away and this worker had claimed it again.
    await db.pool.query(`UPDATE graphile_worker._private_jobs SET ${change} WHERE id = $1::bigint`, [jobId]);
    items[0].settle(false);
    items[1].settle(true);
    items[2].settle(true);
    feed.leave();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await jobRow(jobId)).toMatchObject({ ...expected, locked_by: expect.stringMatching(/^outbound-lanes-/) });
  });

  it("deletes a finished job whose attempts add_job set to the maximum while it was held", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 60_000, log: (line) => logged.push(line) });
    feed.enter();
    const items = await takeAll(3);
    // What graphile-worker's add_job does to a locked job with the key of a new one (a retry recorded by its own
    // attempt).
    await db.pool.query(
      "UPDATE graphile_worker._private_jobs SET attempts = max_attempts, key = NULL WHERE id = $1::bigint",
      [jobId],
    );
    for (const item of items) item.settle(true);
    feed.leave();
    await waitFor(async () => (await jobRow(jobId)) === undefined, 5_000, "the job deleted");
  });

  /** The database's pool, but the first statement named `failing` fails as if the connection had dropped. */
  function poolFailingOnce(failing: string): pg.Pool {
    let failed = false;
    return new Proxy(db.pool, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return (config: unknown, values?: unknown[]) => {
          const text =
            typeof config === "string"
              ? config
              : ((config as { name?: string; text: string }).name ?? (config as { text: string }).text);
          if (!failed && text.includes(failing)) {
            failed = true;
            return Promise.reject(new Error("Connection terminated unexpectedly"));
          }
          return target.query(config as string, values);
        };
      },
    });
  }

  it("deletes a finished job at the next refresh when its delete failed", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({
      pool: poolFailingOnce("outbound-settle-complete"),
      wanted: 10,
      refreshMs: 100,
      log: (line) => logged.push(line),
    });
    feed.enter();
    for (const item of await takeAll(3)) item.settle(true);
    feed.leave();
    await waitFor(
      () => logged.some((line) => line.includes("deleting a finished job failed")),
      5_000,
      "the failed delete",
    );
    await waitFor(async () => (await jobRow(jobId)) === undefined, 5_000, "the job deleted");
  });

  it("puts a dropped job back at the next refresh when unlocking it failed", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({
      pool: poolFailingOnce("outbound-settle-release"),
      wanted: 10,
      refreshMs: 100,
      log: (line) => logged.push(line),
    });
    feed.enter();
    const [started] = await takeAll(1);
    feed.leave();
    started.settle(true);
    await waitFor(() => logged.some((line) => line.includes("unlocking a job failed")), 5_000, "the failed unlock");
    await waitFor(async () => (await jobRow(jobId))?.locked_at === null, 5_000, "the job back in the queue");
    expect(await jobRow(jobId)).toMatchObject({ attempts: 0, locked_by: null });
  });

  it("keeps the locks of the jobs it holds fresh, the one graphile-worker handed out included", async () => {
    const { jobId } = await chunkOfThree();
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 100, log: (line) => logged.push(line) });
    feed.enter();
    const items = await takeAll(1);
    const lockedAt = (await jobRow(jobId))!.locked_at!.getTime();
    await waitFor(async () => (await jobRow(jobId))!.locked_at!.getTime() > lockedAt, 5_000, "a refreshed lock");

    const { rows } = await db.pool.query<{ id: string }>(
      "INSERT INTO graphile_worker._private_jobs (task_id, payload, locked_at, " +
        "locked_by) SELECT id, '{}', now() - interval '1 hour', " +
        "'graphile' FROM graphile_worker._private_tasks WHERE identifier = 'deliver' RETURNING " +
        "id::text",
    );
    const release = feed.hold(rows[0].id);
    await waitFor(
      async () => Date.now() - (await jobRow(rows[0].id))!.locked_at!.getTime() < 60_000,
      5_000,
      "the handed job's lock refreshed",
    );
    release();
    items[0].settle(true);
    feed.leave();
  });
});

describe("a chunk of first attempts", () => {
  it("leaves alone a delivery that was already attempted: its retry is a job of its own", async () => {
    const receiver = await startReceiver();
    try {
      const { accountId, subscriptionId } = await subscribedAccount(receiver.url);
      await notify(accountId);
      const [delivery] = await deliveries(subscriptionId);
      await db.pool.query("UPDATE outbound_deliveries SET attempts = 1 WHERE id = $1", [delivery.id]);
      feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 60_000, log: (line) => logged.push(line) });
      feed.enter();
      const [item] = await takeAll(1);
      const attempted = await attemptDelivery(
        item.deliveryId,
        item.row,
        { pool: db.pool, record: attemptRecorder(db.pool, "deliver") },
        item.firstAttempts,
      );
      expect(await attempted.recorded).toBe("skipped");
      expect(receiver.requests).toHaveLength(0);
      item.settle(true);
      feed.leave();
    } finally {
      await receiver.close();
    }
  });

  it("hands out a job's well-formed ids, and leaves a job with a malformed single id to graphile-worker", async () => {
    const { deliveryIds, jobId } = await chunkOfThree();
    const payload = {
      delivery_ids: [
        deliveryIds[0],
        "not-a-uuid",
        42,
        "'; DROP TABLE outbound_deliveries; --",
        deliveryIds[1],
        deliveryIds[2],
      ],
    };
    await db.pool.query("UPDATE graphile_worker._private_jobs SET payload = $2::json WHERE id = $1::bigint", [
      jobId,
      JSON.stringify(payload),
    ]);
    const single = await db.pool.query<{ id: string }>(
      "SELECT id::text FROM graphile_worker.add_job('deliver', json_build_object('delivery_id', 'not-a-uuid'))",
    );
    feed = jobFeed({ pool: db.pool, wanted: 10, refreshMs: 60_000, log: (line) => logged.push(line) });
    feed.enter();
    const items = await takeAll(3);
    expect(items.map((item) => item.deliveryId).sort()).toEqual([...deliveryIds].sort());
    expect(await feed.take(true)).toBeNull();
    expect(await jobRow(single.rows[0].id)).toMatchObject({ locked_by: null, attempts: 0 });
    for (const item of items) item.settle(true);
    await waitFor(async () => (await jobRow(jobId)) === undefined, 5_000, "the job deleted");
    feed.leave();
  });

  it("is not queued twice by a resend while its first attempt is still to come", async () => {
    const { accountId, deliveryIds } = await chunkOfThree();
    expect(await resendDelivery(accountId, deliveryIds[0])).toBe(true);
    expect(await queuedJobs([deliveryIds[0]])).toHaveLength(1);
  });
});
