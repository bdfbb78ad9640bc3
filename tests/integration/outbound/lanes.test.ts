import { afterAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/platform/db/client";
import { emitNotifications } from "@/lib/outbound/emit";
import { startOutboundWorker, type OutboundWorker } from "@/lib/outbound/worker";
import {
  graphileJobCount,
  queuedRows,
  startReceiver,
  subscribe,
  subscribedAccount,
  waitFor,
  type Receiver,
} from "./support";

/*
 * Lanes (lib/outbound/batch.ts) take due deliveries from their worker's feed (feed.ts), which claims rows of the
 * outbound queue (queue.ts): several workers must still deliver each once.
 */

vi.setConfig({ testTimeout: 90_000 });

const workers: OutboundWorker[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

describe("a burst shared by two workers", () => {
  it("delivers every notification once per subscription, records every attempt, leaves no queue row", async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { accountId, subscriptionId } = await subscribedAccount(`${receiver.url}/a`);
    const second = await subscribe(accountId, `${receiver.url}/b`);
    // Written before the workers start, so both find a full queue and their lanes claim side by side.
    const ids = await emitNotifications(
      db.pool,
      accountId,
      Array.from({ length: 150 }, (_, i) => ({ type: "lead.created", data: { id: `lead_burst_${i}` } })),
    );
    for (let i = 0; i < 2; i++) workers.push(await startOutboundWorker({ concurrency: 6, log: () => {} }));
    await waitFor(() => receiver.requests.length >= 300, 60_000, "300 deliveries");
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // late duplicates
    const received = receiver.requests.map((request) => `${request.url} ${request.headers["webhook-id"]}`);
    expect(received).toHaveLength(300);
    expect(new Set(received).size).toBe(300);
    expect(new Set(receiver.requests.map((request) => request.headers["webhook-id"]))).toEqual(new Set(ids));
    const subscriptions = [subscriptionId, second.subscriptionId];
    // A queue row is deleted once its delivery's attempt is recorded; graphile-worker never held one.
    const deliveryIds = (
      await db.pool.query<{ id: string }>("SELECT id::text FROM outbound_deliveries WHERE subscription_id = ANY ($1)", [
        subscriptions,
      ])
    ).rows;
    await waitFor(async () => (await queuedRows(deliveryIds.map((row) => row.id))).length === 0, 10_000, "no row left");
    expect(await graphileJobCount()).toBeLessThan(10);
    const { rows } = await db.pool.query<{ succeeded: number; attempts: number }>(
      `SELECT (SELECT count(*) FROM outbound_deliveries WHERE subscription_id = ANY($1) AND status = 'succeeded')::int
        AS succeeded,
              (SELECT count(*) FROM outbound_attempts WHERE subscription_id = ANY($1))::int AS attempts`,
      [subscriptions],
    );
    expect(rows[0]).toMatchObject({ succeeded: 300, attempts: 300 });
  });
});
