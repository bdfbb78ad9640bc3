import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/platform/db/client";
import { sweepRetention } from "@/lib/retention/sweep";
import { listDeliveryAttempts, replaySince, resendDelivery, sendTestNotification } from "@/lib/outbound/manage";
import { startOutboundWorker, type OutboundWorker } from "@/lib/outbound/worker";
import { createAccount } from "../../support/factories";
import { deliveries, notify, startReceiver, subscribedAccount, waitFor, type Receiver } from "./support";
import { ensurePartitionsFor } from "../../support/partitions";

/* Resend, replay, the test notification and the attempt list, as the dashboard calls them. */

vi.setConfig({ testTimeout: 60_000 });

let worker: OutboundWorker;
let target: Receiver;
beforeAll(async () => {
  target = await startReceiver();
  worker = await startOutboundWorker({ concurrency: 4, log: () => {} });
});
afterAll(async () => {
  await target.close();
  await worker.stop();
});

const received = (id: string, n: number) =>
  waitFor(
    () => target.requests.filter((r) => r.headers["webhook-id"] === id).length >= n,
    20_000,
    `${n} receipt(s) of ${id}`,
  );

/** An account subscribed to the receiver, and the ids of `count` notifications the receiver has had. */
async function receivedNotifications(count: number) {
  const { accountId, subscriptionId } = await subscribedAccount(target.url);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await notify(accountId));
  for (const id of ids) await received(id, 1);
  return { accountId, subscriptionId, ids };
}

describe("managing deliveries", () => {
  it("sends a test notification to that one subscription only", async () => {
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    const id = await sendTestNotification(accountId, subscriptionId);
    expect(id).toMatch(/^whmsg_/);
    await received(id!, 1);
    const request = target.requests.find((r) => r.headers["webhook-id"] === id)!;
    expect(JSON.parse(request.body)).toMatchObject({ type: "test", data: { subscription_id: subscriptionId } });
    expect(await sendTestNotification((await createAccount()).accountId, subscriptionId)).toBeNull();
  });

  it("resends a delivery with the same webhook-id, and replays everything since a time", async () => {
    const { accountId, subscriptionId, ids } = await receivedNotifications(2);
    const [first, second] = ids;
    await waitFor(async () => (await deliveries(subscriptionId)).every((d) => d.status === "succeeded"));
    const [delivery] = (await deliveries(subscriptionId)).filter((d) => d.message_id === first);
    expect(await resendDelivery(accountId, delivery.id)).toBe(true);
    await received(first, 2);
    expect(await resendDelivery((await createAccount()).accountId, delivery.id)).toBe(false);
    expect(await replaySince(accountId, subscriptionId, new Date(Date.now() - 60_000))).toBe(2);
    await received(first, 3);
    await received(second, 2);
    expect(await replaySince(accountId, subscriptionId, new Date(Date.now() + 60_000))).toBe(0);
  });

  it("lists the attempts newest first, page by page, for the account's own subscription only", async () => {
    const { accountId, subscriptionId, ids } = await receivedNotifications(3);
    await waitFor(async () => (await listDeliveryAttempts(accountId, subscriptionId, { limit: 10 })).data.length === 3);
    const page1 = await listDeliveryAttempts(accountId, subscriptionId, { limit: 2 });
    const page2 = await listDeliveryAttempts(accountId, subscriptionId, { limit: 2, cursor: page1.nextCursor });
    expect(page1.data).toHaveLength(2);
    expect(page2.data).toHaveLength(1);
    expect(page2.nextCursor).toBeNull();
    const all = [...page1.data, ...page2.data];
    expect(new Set(all.map((a) => a.messageId))).toEqual(new Set(ids));
    expect(all.map((a) => a.attemptedAt.getTime())).toEqual(
      [...all.map((a) => a.attemptedAt.getTime())].sort((a, b) => b - a),
    );
    expect(all[0]).toMatchObject({
      statusCode: 204,
      outcome: "succeeded",
      deliveryStatus: "succeeded",
      type: "lead.created",
    });
    // Each attempt names the body it sent: the notification itself, byte for byte.
    const sent = await db.pool.query("SELECT payload::text AS payload FROM outbound_messages WHERE id = $1", [
      all[0].messageId,
    ]);
    expect(all[0].payload).toBe(sent.rows[0].payload);
    expect(JSON.parse(all[0].payload)).toMatchObject({ id: all[0].messageId, type: "lead.created" });
    expect((await listDeliveryAttempts((await createAccount()).accountId, subscriptionId)).data).toEqual([]);
  });

  it("drops whole days of messages, deliveries and attempts older than 30 days, and keeps younger ones", async () => {
    const { accountId, subscriptionId, ids } = await receivedNotifications(2);
    const [old, fresh] = ids;
    await waitFor(async () => (await listDeliveryAttempts(accountId, subscriptionId)).data.length === 2);
    // The old notification, its delivery and its attempt move to a day 31 days back (an UPDATE of the
    // partition column moves a row to that day's partition).
    const back = new Date(Date.now() - 31 * 86_400_000);
    const day = `_p${back.toISOString().slice(0, 10).replaceAll("-", "")}`;
    // An earlier file's retention test may have dropped that day already.
    for (const table of ["outbound_messages", "outbound_deliveries", "outbound_attempts"])
      await ensurePartitionsFor(table, [back]);
    await db.pool.query(
      `WITH m AS (UPDATE outbound_messages SET created_at = $2 WHERE id = $1 RETURNING id),
        d AS (UPDATE outbound_deliveries SET created_at = $2 WHERE message_id = $1 RETURNING id)
       UPDATE outbound_attempts SET attempted_at = $2, delivery_created_at = $2 WHERE delivery_id IN (SELECT id FROM d)`,
      [old, back],
    );
    const partitionOf = async (table: string, column: string) =>
      (await db.pool.query(`SELECT tableoid::regclass::text AS p FROM ${table} WHERE ${column} = $1`, [old])).rows[0]
        ?.p;
    expect(await partitionOf("outbound_messages", "id")).toBe(`outbound_messages${day}`);
    expect(await partitionOf("outbound_deliveries", "message_id")).toBe(`outbound_deliveries${day}`);

    const swept = await sweepRetention({ pauseMs: 0 });
    // Every day older than 30 days of the three tables goes, ours among them; nothing is deleted row by row.
    expect(swept.logDaysDropped).toBeGreaterThanOrEqual(3);
    const { rows: left } = await db.pool.query(
      "SELECT to_regclass($1) AS m, to_regclass($2) AS d, to_regclass($3) AS a",
      [`outbound_messages${day}`, `outbound_deliveries${day}`, `outbound_attempts${day}`],
    );
    expect(left[0]).toEqual({ m: null, d: null, a: null });
    expect(
      (await db.pool.query("SELECT id FROM outbound_messages WHERE id = ANY($1)", [[old, fresh]])).rows.map(
        (row) => row.id,
      ),
    ).toEqual([fresh]);
    expect((await deliveries(subscriptionId)).map((d) => d.message_id)).toEqual([fresh]);
    expect((await listDeliveryAttempts(accountId, subscriptionId)).data.map((a) => a.messageId)).toEqual([fresh]);
  });
});
