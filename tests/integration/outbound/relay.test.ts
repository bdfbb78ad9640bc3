import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { emitNotifications } from "@/lib/outbound/emit";
import { relayFanOuts } from "@/lib/outbound/relay";
import { deliveries, queuedJobs, subscribe, subscribedAccount } from "./support";

/* The fan-out relay: committed messages become deliveries and jobs exactly once, whoever drains. */

const waitingRows = async (messageIds: string[]) =>
  (await db.pool.query("SELECT count(*)::int AS n FROM outbound_fan_outs WHERE message_id = ANY ($1::text[])", [messageIds])).rows[0].n;

describe("the fan-out relay", () => {
  it("creates one delivery and one job per message and subscription when three relays drain at once", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const second = await subscribe(accountId, "http://127.0.0.1:9/second", ["lead.*"]);
    const notifications = Array.from({ length: 1_200 }, (_, i) => ({ type: "lead.created", data: { id: `lead_relay_${i}` } }));
    const ids = await emitNotifications(db.pool, accountId, notifications);

    await Promise.all([relayFanOuts(db.pool, 100), relayFanOuts(db.pool, 100), relayFanOuts(db.pool, 100)]);

    expect(await waitingRows(ids)).toBe(0);
    for (const id of [subscriptionId, second.subscriptionId]) {
      const rows = await deliveries(id);
      expect(rows).toHaveLength(1_200);
      expect(new Set(rows.map((row) => row.message_id))).toEqual(new Set(ids));
      expect(await queuedJobs(rows.map((row) => row.id))).toHaveLength(1_200);
    }
  });

  it("queues nothing for a message no subscription wants, and nothing for a test ping", async () => {
    const { accountId, subscriptionId } = await subscribedAccount("http://127.0.0.1:9/hook", ["event.*"]);
    const ids = await emitNotifications(db.pool, accountId, [
      { type: "lead.created", data: { id: "lead_unwanted" } },
      { type: "test", data: {} },
    ]);
    expect(await waitingRows(ids)).toBe(0);
    expect(await deliveries(subscriptionId)).toEqual([]);
  });

  it("leaves nothing queued when the writing transaction rolls back", async () => {
    const { accountId } = await subscribedAccount();
    const client = await db.pool.connect();
    let ids: string[] = [];
    try {
      await client.query("BEGIN");
      ids = await emitNotifications(client, accountId, [{ type: "lead.created", data: { id: "lead_rolled_back" } }]);
      expect(await client.query("SELECT count(*)::int AS n FROM outbound_fan_outs WHERE message_id = $1", [ids[0]])).toMatchObject({ rows: [{ n: 1 }] });
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await waitingRows(ids)).toBe(0);
  });

  it("gives nothing to a subscription disabled between the message and the relay", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const other = await subscribe(accountId, "http://127.0.0.1:9/other");
    // In one transaction, so that no relay (of another test file) can run in between.
    const client = await db.pool.connect();
    let ids: string[] = [];
    try {
      await client.query("BEGIN");
      ids = await emitNotifications(client, accountId, [{ type: "lead.created", data: { id: "lead_late" } }]);
      await client.query("UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = 'Disabled by hand' WHERE id = $1", [subscriptionId]);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    expect(await deliveries(subscriptionId)).toEqual([]);
    expect((await deliveries(other.subscriptionId)).map((row) => row.message_id)).toEqual(ids);
  });
});
