import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { emitNotifications } from "@/lib/outbound/emit";
import type { ClaimedRow } from "@/lib/outbound/queue";
import { relayFanOuts, startFanOutRelay, type FanOutRelay } from "@/lib/outbound/relay";
import { updateSubscription } from "@/lib/webhook-subscriptions/store";
import { deliveries, dropQueuedFor, queuedRows, subscribe, subscribedAccount, waitFor } from "./support";

/* The fan-out relay: committed messages become deliveries and queue rows exactly once, whoever drains. */

// The message's fan-out row once more, as its trigger writes it.
const QUEUE_AGAIN =
  "INSERT INTO outbound_fan_outs (account_id, message_id, message_created_at) " +
  "SELECT account_id, id, created_at FROM outbound_messages WHERE id = $1";

const waitingRows = async (messageIds: string[]) =>
  (
    await db.pool.query("SELECT count(*)::int AS n FROM outbound_fan_outs WHERE message_id = ANY ($1::text[])", [
      messageIds,
    ])
  ).rows[0].n;

// These tests queue thousands of deliveries for receivers that do not exist; the worker tests that follow
// must not spend their time failing them.
afterAll(() => dropQueuedFor("http://127.0.0.1:9/%"));

describe("the fan-out relay", () => {
  it("creates one delivery and one due queue row per message and subscription, with three relays", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const second = await subscribe(accountId, "http://127.0.0.1:9/second", ["lead.*"]);
    const notifications = Array.from({ length: 1_200 }, (_, i) => ({
      type: "lead.created",
      data: { id: `lead_relay_${i}` },
    }));
    const ids = await emitNotifications(db.pool, accountId, notifications);

    await Promise.all([relayFanOuts(db.pool, 100), relayFanOuts(db.pool, 100), relayFanOuts(db.pool, 100)]);

    expect(await waitingRows(ids)).toBe(0);
    for (const id of [subscriptionId, second.subscriptionId]) {
      const rows = await deliveries(id);
      expect(rows).toHaveLength(1_200);
      expect(new Set(rows.map((row) => row.message_id))).toEqual(new Set(ids));
      const queued = await queuedRows(rows.map((row) => row.id));
      expect(queued.map((row) => row.delivery_id).sort()).toEqual(rows.map((row) => row.id).sort());
      expect(queued.every((row) => row.locked_at === null && row.run_at !== null && row.run_at <= new Date())).toBe(
        true,
      );
    }
  });

  it("creates a message's deliveries once when it is queued twice, in one batch or again later", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const [id] = await emitNotifications(db.pool, accountId, [{ type: "lead.created", data: { id: "lead_twice" } }]);
    await db.pool.query(QUEUE_AGAIN, [id]);
    expect(await waitingRows([id])).toBe(2);
    expect(await relayFanOuts(db.pool)).toBe(1);
    await db.pool.query(QUEUE_AGAIN, [id]);
    await relayFanOuts(db.pool);
    expect(await waitingRows([id])).toBe(0);
    const rows = await deliveries(subscriptionId);
    expect(rows.map((row) => row.message_id)).toEqual([id]);
    expect(await queuedRows(rows.map((row) => row.id))).toHaveLength(1);
  });

  it("drains again at once, without waiting for the next poll, when another relay took a delivery first", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const [first, second] = await emitNotifications(db.pool, accountId, [
      { type: "lead.created", data: { id: "lead_raced_1" } },
      { type: "lead.created", data: { id: "lead_raced_2" } },
    ]);
    // Another relay's transaction has created the first delivery and not yet committed; then this relay
    // starts, and its insert of that delivery waits on the other's.
    const other = await db.pool.connect();
    const logged: string[] = [];
    let relay: FanOutRelay | null = null;
    let committed = false;
    try {
      const { rows } = await other.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await other.query("BEGIN");
      await other.query(
        "INSERT INTO outbound_deliveries (account_id, message_id, subscription_id, created_at, next_attempt_at) " +
          "SELECT account_id, id, $2, created_at, now() FROM outbound_messages WHERE id = $1",
        [first, subscriptionId],
      );
      relay = startFanOutRelay({
        pool: db.pool,
        connectionString: process.env.DATABASE_URL!,
        pollMs: 600_000,
        log: (line) => logged.push(line),
      });
      await waitFor(
        async () => (await blockedBy(rows[0].pid)) > 0,
        5_000,
        "the relay waiting on the uncommitted delivery",
      );
      await other.query("COMMIT");
      committed = true;
      // The poll is 10 minutes away: only an immediate second drain empties the queue in time.
      await waitFor(async () => (await waitingRows([first, second])) === 0, 5_000, "the fan-outs drained");
    } finally {
      if (!committed) await other.query("ROLLBACK").catch(() => {});
      other.release();
      await relay?.stop();
    }
    expect((await deliveries(subscriptionId)).map((row) => row.message_id).sort()).toEqual([first, second].sort());
    expect(logged).toEqual([]);
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
      expect(
        await client.query("SELECT count(*)::int AS n FROM outbound_fan_outs WHERE message_id = $1", [ids[0]]),
      ).toMatchObject({ rows: [{ n: 1 }] });
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await waitingRows(ids)).toBe(0);
  });

  it("gives nothing to a subscription disabled between the message and the relay", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const other = await subscribe(accountId, "http://127.0.0.1:9/other");
    // The message and the disable in one transaction: the relay first sees them together.
    const client = await db.pool.connect();
    let ids: string[] = [];
    try {
      await client.query("BEGIN");
      ids = await emitNotifications(client, accountId, [{ type: "lead.created", data: { id: "lead_late" } }]);
      await client.query(
        "UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = 'Disabled by hand' WHERE id = $1",
        [subscriptionId],
      );
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    expect(await deliveries(subscriptionId)).toEqual([]);
    expect((await deliveries(other.subscriptionId)).map((row) => row.message_id)).toEqual(ids);
  });

  it("gives nothing to a subscription created after the message, however late the relay runs", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const ids = await emitNotifications(db.pool, accountId, [
      { type: "lead.created", data: { id: "lead_before_subscription" } },
    ]);
    // created_at and active_since have millisecond precision: let the clock move past the message's.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await subscribe(accountId, "http://127.0.0.1:9/later");

    expect(await deliveries(later.subscriptionId)).toEqual([]);
    expect((await deliveries(subscriptionId)).map((row) => row.message_id)).toEqual(ids);
  });

  it("gives a re-enabled subscription nothing written while it was disabled", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    const paused = await subscribe(accountId, "http://127.0.0.1:9/paused");
    const context = { accountId, actor: { type: "system" as const } };
    const setStatus = async (status: "active" | "disabled") =>
      expect(
        await updateSubscription(context, paused.subscriptionId, {
          url: undefined,
          eventTypes: undefined,
          description: undefined,
          status,
        }),
      ).toMatchObject({ ok: true });
    await setStatus("disabled");
    const whileDisabled = await emitNotifications(db.pool, accountId, [
      { type: "lead.created", data: { id: "lead_while_disabled" } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await setStatus("active");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const afterwards = await emitNotifications(db.pool, accountId, [
      { type: "lead.created", data: { id: "lead_after_enable" } },
    ]);

    expect((await deliveries(paused.subscriptionId)).map((row) => row.message_id)).toEqual(afterwards);
    expect((await deliveries(subscriptionId)).map((row) => row.message_id).sort()).toEqual(
      [...whileDisabled, ...afterwards].sort(),
    );
  });

  it("locks for its worker up to that worker's room of the due deliveries it creates, loaded as claimed", async () => {
    await relayFanOuts(db.pool);
    const { accountId, subscriptionId } = await subscribedAccount();
    const failing = await subscribe(accountId, "http://127.0.0.1:9/failing", ["lead.*"]);
    await db.pool.query(
      "INSERT INTO outbound_circuits (account_id, subscription_id, paused_until) " +
        "VALUES ($1, $2, now() + interval '1 hour')",
      [accountId, failing.subscriptionId],
    );
    const ids = await emitNotifications(
      db.pool,
      accountId,
      Array.from({ length: 30 }, (_, i) => ({ type: "lead.created", data: { id: `lead_adopt_${i}` } })),
    );
    const adopted: ClaimedRow[] = [];
    const queued = await relayFanOuts(db.pool, 100, undefined, {
      workerId: "worker-adopting",
      room: () => 20,
      adopt: (rows) => adopted.push(...rows),
    });

    expect(queued).toBe(60);
    const healthy = await deliveries(subscriptionId);
    expect(adopted.map((row) => row.wanted_id)).toEqual(healthy.slice(0, 20).map((row) => row.id));
    expect(adopted.every((row) => row.subscription_id === subscriptionId && row.attempts === 0)).toBe(true);
    expect(adopted.map((row) => row.message_id)).toEqual(healthy.slice(0, 20).map((row) => row.message_id));
    expect(adopted.every((row) => ids.includes(row.message_id as string))).toBe(true);
    const rows = await queuedRows([...healthy, ...(await deliveries(failing.subscriptionId))].map((row) => row.id));
    const locked = rows.filter((row) => row.locked_at !== null);
    expect(locked.map((row) => row.delivery_id).sort()).toEqual(adopted.map((row) => row.wanted_id).sort());
    // The other ten healthy ones are left due for any worker's claim; the failing receiver's wait parked.
    expect(rows.filter((row) => row.locked_at === null && !row.parked)).toHaveLength(10);
    expect(rows.filter((row) => row.parked)).toHaveLength(30);
    const owners = await db.pool.query(
      "SELECT DISTINCT locked_by FROM outbound_queue WHERE delivery_id = ANY ($1::uuid[])",
      [locked.map((row) => row.delivery_id)],
    );
    expect(owners.rows).toEqual([{ locked_by: "worker-adopting" }]);
  });

  it("stops between batches when asked, leaving the rest queued for the next relay", async () => {
    await relayFanOuts(db.pool);
    const { accountId, subscriptionId } = await subscribedAccount();
    const ids = await emitNotifications(
      db.pool,
      accountId,
      Array.from({ length: 300 }, (_, i) => ({ type: "lead.created", data: { id: `lead_stop_${i}` } })),
    );
    let batches = 0;
    expect(await relayFanOuts(db.pool, 100, () => batches++ >= 1)).toBe(100);
    expect(await waitingRows(ids)).toBe(200);
    expect(await deliveries(subscriptionId)).toHaveLength(300);
  });
});

/** Backends waiting for a lock that this backend holds (the relay's insert, on the uncommitted row's key). */
async function blockedBy(pid: number): Promise<number> {
  const { rows } = await db.pool.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))",
    [pid],
  );
  return rows[0].n;
}
