import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/keys";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { markNoticesOpened, openNotices } from "@/lib/notices/open";
import { hourOf, readOverview } from "@/lib/overview/read";
import { db } from "@/lib/platform/db/client";
import { disableSubscription } from "@/lib/webhook-subscriptions/store";
import { createSource, send, upsert, sample, type TestSource } from "../events-webhook/support";
import { subscribe } from "../outbound/support";

/* The Overview's data (lib/overview/read.ts) and the failure notices (lib/notices), against the real database. */

const HOUR = 3_600_000;

async function count(source: TestSource, hour: Date, outcome: string, deliveries: number) {
  await db.pool.query(
    `INSERT INTO webhook_delivery_hours (account_id, hour, source_id, outcome, deliveries) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, hour, source_id, outcome) DO UPDATE SET deliveries = EXCLUDED.deliveries`,
    [source.accountId, hour, source.sourceId, outcome, deliveries],
  );
}

async function auditActions(accountId: string) {
  const { rows } = await db.pool.query<{ action: string; target_id: string }>(
    "SELECT action, target_id FROM audit_log WHERE account_id = $1 ORDER BY created_at",
    [accountId],
  );
  return rows;
}

describe("the Overview's data", () => {
  it("shows a new account its checklist with nothing done, an empty chart of 7 × 24 hours, its source", async () => {
    const source = await createSource({ name: "Newcomer" });
    const overview = (await readOverview(source.accountId))!;
    expect(overview.onboarding).toEqual({
      createdKey: false,
      connectedWebhook: false,
      installedWidget: false,
      addedSubscription: false,
    });
    expect(overview.hours).toHaveLength(168);
    expect(overview.hours.every((hour) => hour.accepted + hour.refused + hour.succeeded + hour.failed === 0)).toBe(
      true,
    );
    expect(overview.hours.at(-1)!.hour).toEqual(hourOf(overview.now));
    expect(overview.sources).toMatchObject([{ id: source.sourceId, lastDeliveryAt: null, failing: false }]);
    expect(overview.subscriptions).toEqual([]);
    expect(overview.waitingForPerson).toBe(0);
  });

  it("counts the account's deliveries, keys, subscriptions and waiting visitors, never another's", async () => {
    const mine = await createSource({ name: "Mine" });
    const theirs = await createSource({ name: "Theirs" });
    for (const source of [mine, theirs]) {
      expect((await send(source, upsert(sample()))).status).toBe(200);
      expect((await send(source, JSON.stringify({ action: "upsert", event: {} }))).status).toBe(400);
    }
    await send(theirs, upsert(sample({ title: "Only theirs" })));
    const { subscriptionId: theirSubscription } = await subscribe(theirs.accountId, "http://127.0.0.1:9/theirs");
    const { subscriptionId } = await subscribe(mine.accountId, "http://127.0.0.1:9/mine");
    const soon = new Date(Date.now() + 3 * 24 * HOUR);
    const created = await createApiKey(
      { accountId: mine.accountId, user: mine.context.user },
      { name: "Expiring", scopes: ["read:leads"], expiresAt: soon },
    );
    expect(created.ok).toBe(true);
    await getOrCreateWidget(theirs.accountId);
    await db.pool.query(
      `INSERT INTO conversations (id, account_id, widget_id, visitor_token_hash, status)
       SELECT 'conv_overview' || substr(md5(random()::text), 1, 12), $1, w.id, '\\x00', 'handoff_requested'
       FROM chat_widgets w WHERE w.account_id = $1`,
      [theirs.accountId],
    );

    const overview = (await readOverview(mine.accountId))!;
    expect(overview.sources).toMatchObject([{ id: mine.sourceId, deliveries24h: 2, refused24h: 1, lastStatus: 400 }]);
    expect(overview.subscriptions.map((each) => each.id)).toEqual([subscriptionId]);
    expect(overview.subscriptions.map((each) => each.id)).not.toContain(theirSubscription);
    expect(overview.keys).toMatchObject({ active: 1, usedLast30Days: 0, expiringSoon: [{ name: "Expiring" }] });
    expect(overview.waitingForPerson).toBe(0);
    expect(overview.onboarding).toMatchObject({ createdKey: true, connectedWebhook: true, addedSubscription: true });
    const totals = overview.hours.reduce((sum, hour) => ({
      ...sum,
      accepted: sum.accepted + hour.accepted,
      refused: sum.refused + hour.refused,
    }));
    expect([totals.accepted, totals.refused]).toEqual([1, 1]);

    const other = (await readOverview(theirs.accountId))!;
    expect(other.waitingForPerson).toBe(1);
    expect(other.sources).toMatchObject([{ id: theirs.sourceId, deliveries24h: 3 }]);
    expect(other.keys.active).toBe(0);
    expect(other.onboarding.installedWidget).toBe(true);
  });

  it("answers nothing for an id that is not an account's", async () => {
    expect(await readOverview("not-a-uuid")).toBeNull();
  });
});

describe("failure notices", () => {
  it("notice a source that answered only errors for an hour once, audited, until an owner opens it", async () => {
    const source = await createSource({ name: "Broken sender" });
    const healthy = await createSource({ name: "Fine sender" });
    const now = new Date();
    const previous = new Date(hourOf(now).getTime() - HOUR);
    await count(source, new Date(previous.getTime() - HOUR), "ok", 5);
    await count(source, previous, "invalid_signature", 40);
    await count(healthy, previous, "invalid_signature", 3);
    await count(healthy, hourOf(now), "ok", 1);

    const notices = await openNotices(source.accountId, now);
    expect(notices).toMatchObject([
      { kind: "source_failing", targetId: source.publicId, targetLabel: "Default source" },
    ]);
    expect(await openNotices(source.accountId, now)).toHaveLength(1);
    expect(await openNotices(healthy.accountId, now)).toEqual([]);
    expect(await auditActions(source.accountId)).toContainEqual({
      action: "webhook_source.failing",
      target_id: source.sourceId,
    });
    expect((await readOverview(source.accountId, now))!.sources[0]).toMatchObject({ failing: true });

    await markNoticesOpened(source.accountId, "source_failing", source.publicId);
    // Still failing, but already told: no new notice until it has accepted a request again.
    expect(await openNotices(source.accountId, now)).toEqual([]);
    const failing = (await auditActions(source.accountId)).filter((entry) => entry.action === "webhook_source.failing");
    expect(failing).toHaveLength(1);
  });

  it("notice a subscription the system disables, next to its audit entry, never to another account", async () => {
    const owner = await createSource({ name: "Subscriber" });
    const stranger = await createSource({ name: "Stranger" });
    const { subscriptionId } = await subscribe(owner.accountId, "http://127.0.0.1:9/gone?token=secret");
    expect(await disableSubscription(owner.accountId, subscriptionId, "The receiver answered 410 Gone.")).toBe(true);

    expect(await openNotices(owner.accountId)).toMatchObject([
      {
        kind: "subscription_disabled",
        targetId: subscriptionId,
        targetLabel: "http://127.0.0.1:9/gone",
        message: "The receiver answered 410 Gone.",
      },
    ]);
    expect(await auditActions(owner.accountId)).toContainEqual({
      action: "webhook_subscription.disabled",
      target_id: subscriptionId,
    });
    expect(await openNotices(stranger.accountId)).toEqual([]);
    await markNoticesOpened(stranger.accountId, "subscription_disabled", subscriptionId);
    expect(await openNotices(owner.accountId)).toHaveLength(1);
    await markNoticesOpened(owner.accountId, "subscription_disabled", subscriptionId);
    expect(await openNotices(owner.accountId)).toEqual([]);
    expect((await readOverview(owner.accountId))!.subscriptions).toMatchObject([{ status: "disabled" }]);
  });
});
