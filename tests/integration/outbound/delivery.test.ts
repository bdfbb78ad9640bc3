import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/platform/db/client";
import { FAILING_REASON, GONE_REASON, USER_AGENT } from "@/lib/outbound/deliver";
import { DELIVERY_TIMEOUT_MS, deliveryTimeoutMs, EXCERPT_BYTES } from "@/lib/outbound/post";
import { rotateSubscriptionSecret } from "@/lib/webhook-subscriptions/store";
import {
  attempts,
  deliveries,
  messages,
  notify,
  subscribedAccount,
  subscriptionRow,
  waitFor,
  workerWithReceivers,
} from "./support";

/* Delivery by a worker in this process to receivers on 127.0.0.1: signatures, outcomes and faults. */

// Long enough that a delivery held up behind a stalled attempt shows as such even on a loaded machine.
process.env.OUTBOUND_TIMEOUT_MS = "6000";
// Waits below allow for a loaded machine; the assertions on timing are on recorded values.

vi.setConfig({ testTimeout: 60_000 });

const { receiver } = workerWithReceivers({ concurrency: 10 });

const attemptCount = (subscriptionId: string, n = 1) =>
  waitFor(
    async () => ((await attempts(subscriptionId)).length >= n ? attempts(subscriptionId) : null),
    40_000,
    `${n} attempt(s)`,
  );

describe("a delivered notification", () => {
  it("is the stored payload, signed so that the standardwebhooks library verifies it, with its headers", async () => {
    const target = await receiver();
    const { accountId, subscriptionId, secret } = await subscribedAccount(target.url);
    const id = await notify(accountId, "lead.created", { id: "lead_abc", name: "Ada" });
    const [request] = await waitFor(() => (target.requests.length ? target.requests : null));
    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({ id, type: "lead.created", data: { id: "lead_abc", name: "Ada" } });
    expect(request.headers).toMatchObject({
      "webhook-id": id,
      "content-type": "application/json",
      "user-agent": USER_AGENT,
    });
    expect(Math.abs(Number(request.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(10);
    const [message] = await messages(accountId);
    expect(JSON.parse(request.body)).toEqual(message.payload);
    await waitFor(async () => (await deliveries(subscriptionId))[0]?.status === "succeeded");
    expect(await attempts(subscriptionId)).toMatchObject([
      { attempt: 1, status_code: 204, error: null, outcome: "succeeded" },
    ]);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({
      last_delivery_ok: true,
      failing_since: null,
      last_error: null,
    });
  });

  it("carries two signatures for 24 hours after a rotation, each verifiable with its own secret", async () => {
    const target = await receiver();
    const { accountId, subscriptionId, secret: oldSecret } = await subscribedAccount(target.url);
    const rotated = await rotateSubscriptionSecret({ accountId, actor: { type: "system" } }, subscriptionId);
    if (!rotated.ok) throw new Error("rotation refused");
    await notify(accountId);
    const [request] = await waitFor(() => (target.requests.length ? target.requests : null));
    expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [rotated.secret, oldSecret]) {
      expect(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    }
  });
});

describe("a receiver that fails", () => {
  it("answering 500: the attempt is recorded and the next scheduled 5 s (±20%) later, which succeeds", async () => {
    let calls = 0;
    const target = await receiver((_, res) =>
      res.writeHead(calls++ === 0 ? 500 : 200).end(calls === 1 ? "broken" : "ok"),
    );
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    const [first] = await attemptCount(subscriptionId);
    expect(first).toMatchObject({ attempt: 1, status_code: 500, response_excerpt: "broken", outcome: "retry" });
    expect(first.error).toContain("500");
    const [delivery] = await deliveries(subscriptionId);
    const wait = delivery.next_attempt_at!.getTime() - first.attempted_at.getTime();
    expect(wait).toBeGreaterThanOrEqual(4_000 - 50);
    expect(wait).toBeLessThanOrEqual(6_000 + 50);
    expect((await subscriptionRow(subscriptionId)).failing_since).not.toBeNull();
    const both = await attemptCount(subscriptionId, 2);
    expect(both[1]).toMatchObject({ attempt: 2, status_code: 200, outcome: "succeeded" });
    expect(target.requests[0].headers["webhook-id"]).toBe(target.requests[1].headers["webhook-id"]);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ failing_since: null, last_delivery_ok: true });
  });

  it("answering 429 with Retry-After: 120: the next attempt waits 120 s, not the 5 s of the schedule", async () => {
    const target = await receiver((_, res) => res.writeHead(429, { "retry-after": "120" }).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    const [first] = await attemptCount(subscriptionId);
    expect(first).toMatchObject({ status_code: 429, outcome: "retry" });
    const [delivery] = await deliveries(subscriptionId);
    expect(delivery.next_attempt_at!.getTime() - first.attempted_at.getTime()).toBeGreaterThanOrEqual(119_000);
    expect(delivery.next_attempt_at!.getTime() - first.attempted_at.getTime()).toBeLessThanOrEqual(121_000);
  });

  it("answering 410 Gone: the subscription is disabled at once, with its reason and an audit entry", async () => {
    const target = await receiver((_, res) => res.writeHead(410).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    await waitFor(async () => (await subscriptionRow(subscriptionId)).status === "disabled");
    expect(await subscriptionRow(subscriptionId)).toMatchObject({
      disabled_reason: GONE_REASON,
      last_delivery_ok: false,
    });
    expect(await deliveries(subscriptionId)).toMatchObject([{ status: "failed" }]);
    const audit = await db.prisma.auditLog.findMany({ where: { accountId, action: "webhook_subscription.disabled" } });
    expect(audit).toHaveLength(1);
    await notify(accountId);
    expect(await deliveries(subscriptionId)).toHaveLength(1);
  });

  it("answering 302: a failure, and the redirect is not followed", async () => {
    const target = await receiver((_, res) => res.writeHead(302, { location: "/elsewhere" }).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    const [first] = await attemptCount(subscriptionId);
    expect(first).toMatchObject({ status_code: 302, outcome: "retry" });
    expect(first.error).toContain("redirect");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.requests.map((request) => request.url)).toEqual(["/hook"]);
  });

  it("stalling 20 s: the attempt ends at the timeout and other deliveries go through meanwhile", async () => {
    const stalled = await receiver(() => {});
    const healthy = await receiver();
    const slow = await subscribedAccount(stalled.url);
    const fast = await subscribedAccount(healthy.url);
    await notify(slow.accountId);
    await waitFor(() => stalled.requests.length > 0);
    await notify(fast.accountId);
    await waitFor(() => healthy.requests.length > 0);
    const [first] = await attemptCount(slow.subscriptionId);
    expect(first).toMatchObject({ status_code: null, outcome: "retry" });
    expect(first.error).toContain("timed out");
    expect(first.duration_ms).toBeGreaterThanOrEqual(5_900);
    expect(first.duration_ms).toBeLessThan(9_000);
    // Received while the stalled attempt was still waiting for its answer: not queued behind it.
    expect(healthy.requests[0].at).toBeLessThan(stalled.requests[0].at + first.duration_ms);
  });

  it("times out after 15 seconds by default", () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(15_000);
    expect(deliveryTimeoutMs({})).toBe(15_000);
    expect(deliveryTimeoutMs({ OUTBOUND_TIMEOUT_MS: "2000" })).toBe(2_000);
  });

  it("sending a 10 MB body: a success, with only the first 4 KiB kept", async () => {
    const chunk = Buffer.alloc(1024 * 1024, "x");
    const target = await receiver((_, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 10; i++) res.write(chunk);
      res.end();
    });
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    const [first] = await attemptCount(subscriptionId);
    expect(first).toMatchObject({ status_code: 200, outcome: "succeeded" });
    expect(first.response_excerpt).toHaveLength(EXCERPT_BYTES);
  });

  it("resetting the connection: a failure with a retry", async () => {
    const target = await receiver((_, _res, req) => req.socket.destroy());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await notify(accountId);
    const [first] = await attemptCount(subscriptionId);
    expect(first).toMatchObject({ status_code: null, outcome: "retry" });
    expect(first.error).toMatch(/connection/i);
  });

  it("failing for 5 days: the next failure disables the subscription with its reason and an audit entry", async () => {
    const target = await receiver((_, res) => res.writeHead(500).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await db.pool.query(
      "UPDATE webhook_subscriptions SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1",
      [subscriptionId],
    );
    await notify(accountId);
    await waitFor(async () => (await subscriptionRow(subscriptionId)).status === "disabled");
    expect((await subscriptionRow(subscriptionId)).disabled_reason).toBe(FAILING_REASON);
    expect(await db.prisma.auditLog.count({ where: { accountId, action: "webhook_subscription.disabled" } })).toBe(1);
  });

  it("failing for 4 days: still active, the retry scheduled", async () => {
    const target = await receiver((_, res) => res.writeHead(500).end());
    const { accountId, subscriptionId } = await subscribedAccount(target.url);
    await db.pool.query("UPDATE webhook_subscriptions SET failing_since = now() - interval '4 days' WHERE id = $1", [
      subscriptionId,
    ]);
    await notify(accountId);
    await attemptCount(subscriptionId);
    expect((await subscriptionRow(subscriptionId)).status).toBe("active");
  });
});
