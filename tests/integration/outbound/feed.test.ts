import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { deliveryFeed, type DeliveryFeed, type FeedItem } from "@/lib/outbound/feed";
import { freeStaleLocks, tickCircuits } from "@/lib/outbound/queue";
import { deliveries, fanOut, notify, queuedRows, subscribedAccount } from "./support";

/*
 * A worker's feed (lib/outbound/feed.ts) claims due rows of the outbound queue (lib/outbound/queue.ts) and
 * hands out their deliveries one by one; each row's fate follows what became of its delivery. No worker runs
 * in this file: the tests take the deliveries themselves.
 */

let feed: (DeliveryFeed & { workerId: string }) | null = null;
const logged: string[] = [];
const open = (refreshMs = 60_000, wanted = 10) =>
  (feed = deliveryFeed({ pool: db.pool, wanted, refreshMs, log: (line) => logged.push(line) }));

// Rows left by earlier files would be claimed first, and these tests' rows (to receivers that do not exist)
// must not keep the workers of later files busy.
const emptyQueue = async () => {
  await db.pool.query("DELETE FROM outbound_queue");
  await db.pool.query("DELETE FROM outbound_circuits");
};
beforeEach(async () => {
  await fanOut();
  await emptyQueue();
});
afterAll(emptyQueue);
afterEach(async () => {
  await feed?.close();
  feed = null;
});

/** Three deliveries to one subscription, queued by the relay; answers them in queue order. */
async function threeQueued() {
  const { accountId, subscriptionId } = await subscribedAccount();
  for (let i = 0; i < 3; i++) await notify(accountId, "lead.created", { id: `lead_feed_${i}` });
  const ids = (await deliveries(subscriptionId)).map((row) => row.id);
  const queued = await queuedRows(ids);
  expect(queued).toHaveLength(3);
  return { accountId, subscriptionId, deliveryIds: queued.map((row) => row.delivery_id) };
}

async function takeAll(count: number): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  for (let i = 0; i < count; i++) items.push((await feed!.take(10))!);
  return items;
}

const lockedBy = async (deliveryIds: string[]) =>
  (
    await db.pool.query<{ delivery_id: string; locked_by: string | null }>(
      "SELECT delivery_id::text, locked_by FROM outbound_queue WHERE delivery_id = ANY ($1::uuid[]) ORDER BY seq",
      [deliveryIds],
    )
  ).rows;

describe("a worker's feed of deliveries", () => {
  it("hands out due rows in queue order, locked for this worker; done takes them off, release puts back", async () => {
    const { deliveryIds } = await threeQueued();
    open();
    const items = await takeAll(3);
    expect(items.map((item) => item.key.deliveryId)).toEqual(deliveryIds);
    expect(items.every((item) => item.row?.delivery_status === "pending" && item.row.probe === false)).toBe(true);
    expect((await lockedBy(deliveryIds)).map((row) => row.locked_by)).toEqual(Array(3).fill(feed!.workerId));
    items[0].settle("done");
    items[1].settle("release");
    const workerId = feed!.workerId;
    await feed!.close();
    // The third was handed out and not settled: it stays with its lane.
    expect(await lockedBy(deliveryIds)).toEqual([
      { delivery_id: deliveryIds[1], locked_by: null },
      { delivery_id: deliveryIds[2], locked_by: workerId },
    ]);
    expect(await feed!.take(10)).toBeNull();
  });

  it("puts back, unlocked and due, what it claimed but did not hand out when it closes", async () => {
    const { deliveryIds } = await threeQueued();
    open();
    const [first] = await takeAll(1);
    first.settle("done");
    await feed!.close();
    const rows = await queuedRows(deliveryIds);
    expect(rows.map((row) => row.delivery_id)).toEqual(deliveryIds.slice(1));
    expect(
      rows.every((row) => row.locked_at === null && row.run_at !== null && row.run_at.getTime() <= Date.now()),
    ).toBe(true);
  });

  it("parks the rows of a subscription whose circuit is open on the way, and hands out its probe alone", async () => {
    const { accountId, subscriptionId, deliveryIds } = await threeQueued();
    await db.pool.query(
      "INSERT INTO outbound_circuits (account_id, subscription_id, paused_until) " +
        "VALUES ($1, $2, now() - interval '1 second')",
      [accountId, subscriptionId],
    );
    open();
    expect(await feed!.take(10)).toBeNull();
    const parked = await queuedRows(deliveryIds);
    expect(parked.map((row) => row.parked)).toEqual([true, true, true]);
    // The pause is over: the tick makes the oldest row the probe, due now.
    expect(await tickCircuits(db.pool)).toBe(1);
    const probe = (await feed!.take(10))!;
    expect(probe.key.deliveryId).toBe(deliveryIds[0]);
    expect(probe.row?.probe).toBe(true);
    expect(await feed!.take(10)).toBeNull();
    // While the probe is in flight, the tick starts no other.
    expect(await tickCircuits(db.pool)).toBe(0);
    probe.settle("release");
  });

  it("claims again at once when a claim only parked rows, and hands out the due row behind them", async () => {
    const held = await threeQueued();
    await db.pool.query(
      "INSERT INTO outbound_circuits (account_id, subscription_id, paused_until) " +
        "VALUES ($1, $2, now() + interval '1 hour')",
      [held.accountId, held.subscriptionId],
    );
    const healthy = await subscribedAccount();
    await notify(healthy.accountId);
    const [due] = await deliveries(healthy.subscriptionId);
    // Two rows a claim: the first claim meets only parked ones.
    open(60_000, 2);
    const started = Date.now();
    const item = await feed!.take(5_000);
    expect(item?.key.deliveryId).toBe(due.id);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await queuedRows(held.deliveryIds)).every((row) => row.parked)).toBe(true);
    item!.settle("release");
  });

  it("puts a row whose record failed back at the next refresh, and frees the rows of a worker that died", async () => {
    const { deliveryIds } = await threeQueued();
    open(100);
    const [first, second] = await takeAll(2);
    first.settle("failed");
    await expect.poll(async () => (await lockedBy([deliveryIds[0]]))[0]?.locked_by, { timeout: 5_000 }).toBeNull();
    // A worker that died leaves its lock to age: the sweep frees it.
    second.settle("recorded");
    await db.pool.query("UPDATE outbound_queue SET locked_at = now() - interval '10 minutes' WHERE delivery_id = $1", [
      deliveryIds[1],
    ]);
    expect(await freeStaleLocks(db.pool, 60_000)).toBe(1);
    expect((await lockedBy([deliveryIds[1]]))[0].locked_by).toBeNull();
  });
});
