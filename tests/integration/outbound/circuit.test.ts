import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/platform/db/client";
import { emitNotifications } from "@/lib/outbound/emit";
import { GONE_REASON, FAILING_REASON } from "@/lib/outbound/deliver";
import {
  attempts,
  deliveries,
  graphileJobCount,
  notify,
  queuedRows,
  subscribe,
  subscribedAccount,
  subscriptionRow,
  waitFor,
  workerWithReceivers,
  type Receiver,
} from "./support";

/*
 * A failing receiver's circuit (docs/outbound-webhooks.md, "Answers, retries and disabling"): its deliveries
 * wait parked in the outbound queue, one probe is sent when the pause is over, and its success lets the backlog
 * flow in order. One attempt in flight at a time, so the order of arrival is the order of sending.
 */

process.env.OUTBOUND_TIMEOUT_MS = "2000";
vi.setConfig({ testTimeout: 60_000 });

const { receiver } = workerWithReceivers({ concurrency: 1, pollIntervalMs: 200 });

type CircuitRow = { failures: number; paused_until: Date; opened_at: Date; probe_delivery_id: string | null };
const circuit = async (subscriptionId: string): Promise<CircuitRow | undefined> =>
  (await db.pool.query<CircuitRow>("SELECT * FROM outbound_circuits WHERE subscription_id = $1", [subscriptionId]))
    .rows[0];

const circuitOpened = (subscriptionId: string) =>
  waitFor(async () => (await circuit(subscriptionId)) !== undefined, 20_000, "the circuit");

/** Waits until every delivery of the subscription has ended with `status`. */
const allDeliveries = (subscriptionId: string, status: "succeeded" | "failed") =>
  waitFor(
    async () => (await deliveries(subscriptionId)).every((row) => row.status === status),
    10_000,
    `all ${status}`,
  );

const ids = (target: Receiver) => target.requests.map((request) => String(request.headers["webhook-id"]));

/** Writes `count` notifications in one statement; answers their ids in order. */
const burst = (accountId: string, count: number, label: string) =>
  emitNotifications(
    db.pool,
    accountId,
    Array.from({ length: count }, (_, i) => ({ type: "lead.created", data: { id: `lead_${label}_${i}` } })),
  );

describe("a subscription's circuit", () => {
  it("opens on a 503 and holds the backlog: nothing more is sent, waiting deliveries are charged nothing", async () => {
    const target = await receiver((_, res) => res.writeHead(503).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    const first = await notify(accountId);
    await waitFor(async () => (await attempts(subscriptionId)).length === 1, 20_000, "the first attempt");
    const opened = (await circuit(subscriptionId))!;
    expect(opened).toMatchObject({ failures: 1, probe_delivery_id: null });
    const [attempt] = await attempts(subscriptionId);
    const pause = opened.paused_until.getTime() - attempt.attempted_at.getTime();
    expect(pause).toBeGreaterThanOrEqual(4_000 - 50);
    expect(pause).toBeLessThanOrEqual(6_000 + 50);
    const later = await burst(accountId, 5, "held");
    await waitFor(async () => (await deliveries(subscriptionId)).length === 6, 10_000, "six deliveries");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(ids(target)).toEqual([first]);
    const rows = await deliveries(subscriptionId);
    const queued = await queuedRows(rows.map((row) => row.id));
    expect(queued).toHaveLength(6);
    expect(queued.every((row) => row.parked)).toBe(true);
    expect(rows.filter((row) => later.includes(row.message_id)).map((row) => row.attempts)).toEqual([0, 0, 0, 0, 0]);
  });

  it("sends one probe at paused_until; its success closes the circuit and the backlog flows in order", async () => {
    const target = await receiver((_, res) => res.writeHead(target.requests.length === 1 ? 503 : 204).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    const first = await notify(accountId);
    await circuitOpened(subscriptionId);
    const backlog = await burst(accountId, 8, "backlog");
    await waitFor(() => target.requests.length === 10, 30_000, "the backlog");
    // The probe (the oldest delivery, the one that failed) alone, then the rest in queue order: as written
    // (the notifications of one statement share their time and go by id).
    expect(ids(target)).toEqual([first, first, ...[...backlog].sort()]);
    expect(target.requests[1].at - target.requests[0].at).toBeGreaterThanOrEqual(3_900);
    expect(target.requests[2].at).toBeGreaterThanOrEqual(target.requests[1].at);
    await waitFor(async () => (await circuit(subscriptionId)) === undefined, 10_000, "the circuit closed");
    await allDeliveries(subscriptionId, "succeeded");
    const log = await attempts(subscriptionId);
    expect(log.map((row) => row.outcome)).toEqual(["retry", ...Array(9).fill("succeeded")]);
    expect(await queuedRows((await deliveries(subscriptionId)).map((row) => row.id))).toEqual([]);
  });

  it("honours Retry-After: the circuit stays paused as long as the receiver asks, then probes", async () => {
    const target = await receiver((_, res) =>
      target.requests.length === 1 ? res.writeHead(503, { "retry-after": "2" }).end() : res.writeHead(204).end(),
    );
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    await circuitOpened(subscriptionId);
    const [attempt] = await attempts(subscriptionId);
    const pause = (await circuit(subscriptionId))!.paused_until.getTime() - attempt.attempted_at.getTime();
    expect(pause).toBeGreaterThanOrEqual(1_900);
    expect(pause).toBeLessThanOrEqual(2_500);
    await waitFor(() => target.requests.length === 2, 10_000, "the probe");
    expect(target.requests[1].at - target.requests[0].at).toBeGreaterThanOrEqual(1_900);
  });

  it("a probe answered 410 disables the subscription at once; its waiting deliveries fail unsent", async () => {
    const target = await receiver((_, res) => res.writeHead(target.requests.length === 1 ? 500 : 410).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    await circuitOpened(subscriptionId);
    await burst(accountId, 3, "gone");
    await waitFor(async () => (await subscriptionRow(subscriptionId)).status === "disabled", 20_000, "disabled");
    expect((await subscriptionRow(subscriptionId)).disabled_reason).toBe(GONE_REASON);
    await allDeliveries(subscriptionId, "failed");
    expect(target.requests).toHaveLength(2);
    expect(await circuit(subscriptionId)).toBeUndefined();
    // Taken off the queue just after they are marked failed.
    await waitFor(
      async () => (await queuedRows((await deliveries(subscriptionId)).map((row) => row.id))).length === 0,
      5_000,
      "an empty queue",
    );
  });

  it("a probe failing after 5 days of failures disables the subscription; the waiting fail unsent", async () => {
    const target = await receiver((_, res) => res.writeHead(500).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    await circuitOpened(subscriptionId);
    await burst(accountId, 3, "tired");
    await db.pool.query(
      "UPDATE webhook_subscriptions SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1",
      [subscriptionId],
    );
    await waitFor(async () => (await subscriptionRow(subscriptionId)).status === "disabled", 20_000, "disabled");
    expect((await subscriptionRow(subscriptionId)).disabled_reason).toBe(FAILING_REASON);
    await allDeliveries(subscriptionId, "failed");
    expect(target.requests).toHaveLength(2);
  });

  it("leaves a healthy subscription's lag alone; graphile-worker's job table does not grow with backlog", async () => {
    const failing = await receiver((_, res) => res.writeHead(503).end());
    const healthy = await receiver();
    const { accountId, subscriptionId } = await subscribedAccount(failing.url);
    const jobsBefore = await graphileJobCount();
    await notify(accountId);
    await circuitOpened(subscriptionId);
    const backlog = await burst(accountId, 500, "down");
    await waitFor(async () => (await deliveries(subscriptionId)).length === 501, 10_000, "the backlog");
    const other = await subscribedAccount(healthy.url);
    const second = await subscribe(other.accountId, `${healthy.url}/second`);
    const written = Date.now();
    // Few enough for one lane (concurrency 1) on a loaded 2-core machine: were the parked backlog in the
    // way, the first of them alone would wait behind 501 refused attempts.
    const sent = await burst(other.accountId, 10, "up");
    await waitFor(() => healthy.requests.length === 20, 10_000, "the healthy deliveries");
    expect(Math.max(...healthy.requests.map((request) => request.at - written))).toBeLessThan(2_000);
    expect(new Set(ids(healthy))).toEqual(new Set(sent));
    // Recorded after the receiver has answered.
    await allDeliveries(second.subscriptionId, "succeeded");
    expect(failing.requests).toHaveLength(1);
    const queued = await queuedRows((await deliveries(subscriptionId)).map((row) => row.id));
    expect(queued).toHaveLength(backlog.length + 1);
    expect(await graphileJobCount()).toBeLessThanOrEqual(jobsBefore);
  });
});
