import { beforeEach, describe, expect, it } from "vitest";
import {
  createSubscriptionAction,
  deleteSubscriptionAction,
  replaySinceAction,
  resendDeliveryAction,
  revealSubscriptionSecretAction,
  rotateSubscriptionSecretAction,
  sendTestNotificationAction,
  setSubscriptionEnabledAction,
  updateSubscriptionAction,
} from "@/app/(dashboard)/settings/webhooks/actions";
import SubscriptionPage from "@/app/(dashboard)/settings/webhooks/[id]/page";
import WebhooksPage from "@/app/(dashboard)/settings/webhooks/page";
import { db } from "@/lib/platform/db/client";
import { emitNotifications } from "@/lib/outbound/emit";
import { relayFanOuts } from "@/lib/outbound/relay";
import { disableSubscription } from "@/lib/webhook-subscriptions/store";
import { addMember, createAccount, signedInOwner, type TestAccount } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";
import { renderedText } from "../support/rendered-text";
import { subscriptionCount, fakeResolverForTests } from "./webhook-subscriptions/client";

fakeResolverForTests();
beforeEach(() => signOut());

function form(values: { url?: string; eventTypes?: string[]; description?: string; subscriptionId?: string }) {
  const data = new FormData();
  data.set("url", values.url ?? "https://hooks.example.test/incoming");
  for (const type of values.eventTypes ?? ["lead.created"]) data.append("eventTypes", type);
  data.set("description", values.description ?? "");
  if (values.subscriptionId) data.set("subscriptionId", values.subscriptionId);
  return data;
}

/** The audit actions of a subscription's life, in order, by their verbs. */
const subscriptionAudit = (...verbs: string[]) => verbs.map((verb) => `webhook_subscription.${verb}`);

const auditActions = async (accountId: string) =>
  (
    await db.prisma.auditLog.findMany({
      where: { accountId, targetType: "webhook_subscription" },
      orderBy: { createdAt: "asc" },
    })
  ).map((entry) => ({
    action: entry.action,
    actorId: entry.actorId,
  }));

async function created(owner: TestAccount, values: Parameters<typeof form>[0] = {}) {
  await signInAs(owner.user);
  const result = await createSubscriptionAction(form(values));
  if (!result.ok) throw new Error(`not created: ${result.error}`);
  return result.data;
}

const detailPage = (id: string) =>
  SubscriptionPage({ params: Promise.resolve({ id }), searchParams: Promise.resolve({}) });

const MANAGERS_ONLY = { ok: false, error: "Only owners and admins can do this." };

describe("who may manage subscriptions", () => {
  it("refuses every change to a member and changes nothing; an admin may", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    const member = await addMember(owner.accountId, "member");
    await signInAs(member);
    const id = { subscriptionId: subscription.id };

    expect(await createSubscriptionAction(form({ url: "https://zapier.example.test/hook" }))).toEqual(MANAGERS_ONLY);
    expect(await updateSubscriptionAction(form({ ...id, description: "changed" }))).toEqual(MANAGERS_ONLY);
    expect(await setSubscriptionEnabledAction({ ...id, enabled: false })).toEqual(MANAGERS_ONLY);
    expect(await revealSubscriptionSecretAction(id)).toEqual(MANAGERS_ONLY);
    expect(await rotateSubscriptionSecretAction(id)).toEqual(MANAGERS_ONLY);
    expect(await deleteSubscriptionAction(id)).toEqual(MANAGERS_ONLY);

    const row = await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } });
    expect(row).toMatchObject({ status: "active", description: "", previousSecretExpiresAt: null });
    expect(await subscriptionCount(owner.accountId)).toBe(1);
    expect((await auditActions(owner.accountId)).map((entry) => entry.action)).toEqual(subscriptionAudit("created"));

    const admin = await addMember(owner.accountId, "admin");
    await signInAs(admin);
    expect((await setSubscriptionEnabledAction({ ...id, enabled: false })).ok).toBe(true);
  });

  it("refuses without a session", async () => {
    expect(await createSubscriptionAction(form({}))).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
  });

  it("finds nothing of another account", async () => {
    const other = await createAccount("Other Account");
    const theirs = await created(other);
    await signedInOwner();
    const notFound = { ok: false, error: "This subscription no longer exists; it may have been deleted." };
    expect(await revealSubscriptionSecretAction({ subscriptionId: theirs.id })).toEqual(notFound);
    expect(await deleteSubscriptionAction({ subscriptionId: theirs.id })).toEqual(notFound);
    expect(await setSubscriptionEnabledAction({ subscriptionId: theirs.id, enabled: false })).toEqual(notFound);
    expect(await db.prisma.webhookSubscription.count({ where: { id: theirs.id, status: "active" } })).toBe(1);
  });
});

describe("adding a subscription", () => {
  it("stores it, returns the secret once for the reveal, and audits it", async () => {
    const owner = await createAccount();
    const subscription = await created(owner, {
      url: "https://Hooks.Example.test/incoming",
      eventTypes: ["lead.created", "event.*"],
      description: " Zap: leads ",
    });
    expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(subscription.url).toBe("https://hooks.example.test/incoming");
    const row = await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } });
    expect(row).toMatchObject({
      accountId: owner.accountId,
      eventTypes: ["lead.created", "event.*"],
      description: "Zap: leads",
      status: "active",
    });
    expect(row.secretCiphertext).not.toContain(subscription.secret.slice(6));
    expect(await auditActions(owner.accountId)).toEqual([
      { action: "webhook_subscription.created", actorId: owner.user.id },
    ]);
  });

  it.each([
    [
      "a private IPv4 address",
      "http://10.0.0.1/hook",
      "This address is on a private network (such as localhost, 10.x.x.x or 192.168.x.x).",
    ],
    ["localhost", "http://localhost:3000/hook", "This address is on a private network"],
    ["the cloud metadata address", "http://169.254.169.254/latest", "This address is on a private network"],
    [
      "a name resolving to a private address",
      "https://intranet.example.test/hook",
      "We could not find a public address for intranet.example.test: " +
        "it does not exist yet, or it points to a private network.",
    ],
    [
      "a host that does not resolve, in the same words",
      "https://nowhere.example.test/hook",
      "We could not find a public address for nowhere.example.test: " +
        "it does not exist yet, or it points to a private network.",
    ],
    [
      "a port that is not allowed",
      "https://hooks.example.test:22/hook",
      "Notifications go to port 443 or to a port from 1024 to 65535.",
    ],
    [
      "plain http to a public host",
      "http://hooks.example.test/hook",
      "Notifications are only sent to https addresses.",
    ],
    ["ftp", "ftp://hooks.example.test/", "Notifications are only sent to https addresses."],
    ["not a URL", "hooks.example.test/hook", "Enter a full address starting with https://"],
  ])("refuses %s with a message on the URL field and stores nothing", async (_what, url, message) => {
    const owner = await signedInOwner();
    const result = await createSubscriptionAction(form({ url }));
    expect(result).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: { url: [expect.stringContaining(message)] },
    });
    expect(await subscriptionCount(owner.accountId)).toBe(0);
    expect(await auditActions(owner.accountId)).toEqual([]);
  });

  it("names every field at once: a private URL and no event type", async () => {
    const owner = await signedInOwner();
    expect(await createSubscriptionAction(form({ url: "http://192.168.1.20/hook", eventTypes: [] }))).toEqual({
      ok: false,
      error: "Check the fields marked below.",
      fieldErrors: {
        url: [expect.stringContaining("private network")],
        eventTypes: ["Choose at least one event type, or All events."],
      },
    });
    expect(await createSubscriptionAction(form({ url: " ", eventTypes: [] }))).toMatchObject({
      fieldErrors: { url: ["Enter the address notifications should go to."], eventTypes: [expect.any(String)] },
    });
    expect(await subscriptionCount(owner.accountId)).toBe(0);
  });

  it("refuses no event type, and an unknown one, on the event types field", async () => {
    const owner = await signedInOwner();
    expect(await createSubscriptionAction(form({ eventTypes: [] }))).toMatchObject({
      fieldErrors: { eventTypes: ["Choose at least one event type, or All events."] },
    });
    expect(await createSubscriptionAction(form({ eventTypes: ["lead.exploded"] }))).toMatchObject({
      fieldErrors: { eventTypes: [expect.stringContaining('Unknown event type "lead.exploded"')] },
    });
    expect(await subscriptionCount(owner.accountId)).toBe(0);
  });

  it("refuses the 11th subscription on the Free plan with the plan's number, and the 101st on Pro", async () => {
    const owner = await createAccount();
    await db.pool.query(
      `INSERT INTO webhook_subscriptions (id, account_id, url, event_types, secret_ciphertext)
       SELECT 'whsub_' || substr(md5(random()::text || n), 1, 22), $1, 'https://hooks.example.test/' || n, ARRAY['*'],
         'x' FROM generate_series(1, 10) AS n`,
      [owner.accountId],
    );
    await signInAs(owner.user);
    expect(await createSubscriptionAction(form({}))).toEqual({
      ok: false,
      error:
        "The Free plan allows 10 webhook subscriptions and this account has 10. " +
        "Delete one you no longer use, or upgrade to Pro for up to 100.",
    });
    expect(await subscriptionCount(owner.accountId)).toBe(10);

    await db.prisma.account.update({ where: { id: owner.accountId }, data: { plan: "pro" } });
    await signInAs(owner.user);
    expect((await createSubscriptionAction(form({}))).ok).toBe(true);
  });
});

describe("editing, disabling and enabling", () => {
  it("saves the URL, event types and description; a private URL is refused and nothing changes", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    const refused = await updateSubscriptionAction(
      form({ subscriptionId: subscription.id, url: "https://intranet.example.test/", eventTypes: ["*"] }),
    );
    expect(refused).toMatchObject({ ok: false, fieldErrors: { url: [expect.stringContaining("private network")] } });
    expect(await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } })).toMatchObject({
      eventTypes: ["lead.created"],
    });

    const saved = await updateSubscriptionAction(
      form({
        subscriptionId: subscription.id,
        url: "https://zapier.example.test/hooks/1",
        eventTypes: ["*"],
        description: "Zap 1",
      }),
    );
    expect(saved).toEqual({ ok: true, data: { message: "Subscription saved." } });
    expect(await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } })).toMatchObject({
      url: "https://zapier.example.test/hooks/1",
      eventTypes: ["*"],
      description: "Zap 1",
    });
    expect((await auditActions(owner.accountId)).map((entry) => entry.action)).toEqual(
      subscriptionAudit("created", "updated"),
    );
  });

  it("disabling by hand names the person; enabling clears the reason and the failure run", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    expect((await setSubscriptionEnabledAction({ subscriptionId: subscription.id, enabled: false })).ok).toBe(true);
    expect(await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } })).toMatchObject({
      status: "disabled",
      disabledReason: "Disabled by Ada Lovelace.",
    });
    await setSubscriptionEnabledAction({ subscriptionId: subscription.id, enabled: true });

    // The system disables it after 5 days of failures; enabling by hand starts afresh.
    await db.prisma.webhookSubscription.updateMany({
      where: { id: subscription.id },
      data: { failingSince: new Date(Date.now() - 6 * 86_400_000), lastError: "The receiver answered 500." },
    });
    expect(await disableSubscription(owner.accountId, subscription.id, "Every delivery failed for 5 days.")).toBe(true);
    const result = await setSubscriptionEnabledAction({ subscriptionId: subscription.id, enabled: true });
    expect(result).toEqual({
      ok: true,
      data: { message: "Subscription enabled: new notifications are delivered again." },
    });
    expect(await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } })).toMatchObject({
      status: "active",
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
    });
    expect((await auditActions(owner.accountId)).map((entry) => entry.action)).toEqual(
      subscriptionAudit("created", "disabled", "enabled", "disabled", "enabled"),
    );
  });

  it("deletes it with an audit entry", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    expect((await deleteSubscriptionAction({ subscriptionId: subscription.id })).ok).toBe(true);
    expect(await subscriptionCount(owner.accountId)).toBe(0);
    expect((await auditActions(owner.accountId)).at(-1)).toEqual({
      action: "webhook_subscription.deleted",
      actorId: owner.user.id,
    });
  });
});

describe("the signing secret", () => {
  it("reveals the current secret with an audit entry per reveal", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    expect(await revealSubscriptionSecretAction({ subscriptionId: subscription.id })).toEqual({
      ok: true,
      data: { secret: subscription.secret },
    });
    expect(await revealSubscriptionSecretAction({ subscriptionId: subscription.id })).toEqual({
      ok: true,
      data: { secret: subscription.secret },
    });
    expect(await auditActions(owner.accountId)).toEqual([
      { action: "webhook_subscription.created", actorId: owner.user.id },
      { action: "webhook_subscription.secret_revealed", actorId: owner.user.id },
      { action: "webhook_subscription.secret_revealed", actorId: owner.user.id },
    ]);
  });

  it("rotates: a new secret, the old one kept signing for 24 hours, audited", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    const before = Date.now();
    const rotated = await rotateSubscriptionSecretAction({ subscriptionId: subscription.id });
    if (!rotated.ok) throw new Error(rotated.error);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(subscription.secret);
    const row = await db.prisma.webhookSubscription.findFirstOrThrow({ where: { id: subscription.id } });
    expect(row.previousSecretExpiresAt!.getTime() - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(row.previousSecretExpiresAt!.getTime() - before).toBeLessThanOrEqual(24 * 3_600_000 + 5_000);
    expect(await revealSubscriptionSecretAction({ subscriptionId: subscription.id })).toEqual({
      ok: true,
      data: { secret: rotated.data.secret },
    });
    expect((await auditActions(owner.accountId)).map((entry) => entry.action)).toEqual(
      subscriptionAudit("created", "secret_rotated", "secret_revealed"),
    );
  });
});

describe("the pages", () => {
  it("never put the secret in what they render", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    expect(renderedText(await WebhooksPage())).not.toContain(subscription.secret);
    const detail = renderedText(await detailPage(subscription.id));
    expect(detail).toContain(subscription.url);
    expect(detail).not.toContain(subscription.secret);
  });

  it("say why a subscription is disabled and how to re-enable it", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    await disableSubscription(
      owner.accountId,
      subscription.id,
      "The receiver answered 410 Gone, which means it no longer wants these notifications.",
    );
    const detail = renderedText(await detailPage(subscription.id));
    expect(detail).toContain("This subscription is disabled");
    expect(detail).toContain("The receiver answered 410 Gone, which means it no longer wants these notifications.");
    expect(detail).toContain("press Enable");
  });

  it("say since when deliveries fail and the last error", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    await db.prisma.webhookSubscription.updateMany({
      where: { id: subscription.id },
      data: {
        failingSince: new Date("2026-03-03T14:05:00Z"),
        lastDeliveryAt: new Date(),
        lastDeliveryOk: false,
        lastError: "No answer within 15 seconds (timed out).",
      },
    });
    const detail = renderedText(await detailPage(subscription.id));
    expect(detail).toContain("Deliveries are failing");
    expect(detail).toContain("No answer within 15 seconds (timed out).");
    expect(detail).toContain("Mar 3, 2026, 14:05 UTC");
  });
});

describe("deliveries from the dashboard", () => {
  /** A committed notification of the account, fanned out to its subscriptions (no worker runs here). */
  async function notifyAccount(accountId: string, type = "lead.created") {
    const [id] = await emitNotifications(db.pool, accountId, [{ type, data: { id: "lead_test" } }]);
    await relayFanOuts(db.pool);
    return id;
  }
  const deliveryOf = async (subscriptionId: string, messageId: string) =>
    (
      await db.pool.query(
        "SELECT id, status::text AS status, attempts FROM outbound_deliveries " +
          "WHERE subscription_id = $1 AND message_id = $2",
        [subscriptionId, messageId],
      )
    ).rows[0];
  /** An owner (signed in) with a new subscription and its delivery of one notification. */
  async function ownerWithDelivery() {
    const owner = await createAccount();
    const subscription = await created(owner);
    const messageId = await notifyAccount(owner.accountId);
    return { owner, subscription, messageId, delivery: await deliveryOf(subscription.id, messageId) };
  }

  it("sends a test notification to an enabled subscription; refuses members and disabled subscriptions", async () => {
    const owner = await createAccount();
    const subscription = await created(owner);
    const result = await sendTestNotificationAction({ subscriptionId: subscription.id });
    expect(result).toMatchObject({ ok: true, data: { message: expect.stringContaining("Test notification queued") } });
    const { rows } = await db.pool.query(
      "SELECT m.type FROM outbound_messages m JOIN outbound_deliveries d ON " +
        "d.message_id = m.id WHERE d.subscription_id = $1",
      [subscription.id],
    );
    expect(rows).toEqual([{ type: "test" }]);

    await setSubscriptionEnabledAction({ subscriptionId: subscription.id, enabled: false });
    expect(await sendTestNotificationAction({ subscriptionId: subscription.id })).toEqual({
      ok: false,
      error:
        "This subscription is disabled. Enable it first; a disabled subscription receives nothing, tests included.",
    });
    await signInAs(await addMember(owner.accountId, "member"));
    expect(await sendTestNotificationAction({ subscriptionId: subscription.id })).toEqual(MANAGERS_ONLY);
  });

  it("resends a failed delivery from scratch; another account's delivery is not found", async () => {
    const { owner, subscription, messageId, delivery } = await ownerWithDelivery();
    await db.pool.query(
      "UPDATE outbound_deliveries SET status = 'failed', attempts = 8, next_attempt_at = NULL WHERE id = $1",
      [delivery.id],
    );

    expect(await resendDeliveryAction({ deliveryId: delivery.id })).toEqual({
      ok: true,
      data: { message: "Notification queued again; it goes out within moments." },
    });
    expect(await deliveryOf(subscription.id, messageId)).toMatchObject({ status: "pending", attempts: 0 });

    await signedInOwner("Stranger"); // another account's owner
    expect(await resendDeliveryAction({ deliveryId: delivery.id })).toMatchObject({
      ok: false,
      error: expect.stringContaining("cannot be resent"),
    });
    await signInAs(await addMember(owner.accountId, "member"));
    expect(await resendDeliveryAction({ deliveryId: delivery.id })).toEqual(MANAGERS_ONLY);
  });

  it("retries now a delivery that waits hours for its next retry: due at once, its queue row moved to now", async () => {
    const { delivery } = await ownerWithDelivery();
    await db.pool.query(
      "UPDATE outbound_deliveries SET status = 'pending', attempts = 5, " +
        "next_attempt_at = now() + interval '3 hours' WHERE id = $1",
      [delivery.id],
    );
    await db.pool.query("UPDATE outbound_queue SET run_at = 'infinity' WHERE delivery_id = $1", [delivery.id]);

    expect(await resendDeliveryAction({ deliveryId: delivery.id })).toMatchObject({ ok: true });
    const { rows } = await db.pool.query(
      `SELECT d.status::text AS status, d.attempts, d.next_attempt_at <= now() AS due,
              (SELECT q.run_at <= now() FROM outbound_queue q WHERE q.delivery_id = d.id) AS job_due
       FROM outbound_deliveries d WHERE d.id = $1`,
      [delivery.id],
    );
    expect(rows[0]).toEqual({ status: "pending", attempts: 0, due: true, job_due: true });
  });

  it("replays since a moment read in the account's time zone", async () => {
    const owner = await createAccount();
    await db.prisma.account.update({ where: { id: owner.accountId }, data: { timezone: "Europe/Berlin" } });
    const subscription = await created(owner);
    const early = await notifyAccount(owner.accountId);
    const late = await notifyAccount(owner.accountId);
    // A day within the 30 days deliveries are kept.
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    await db.pool.query(
      "UPDATE outbound_deliveries SET status = 'succeeded', " +
        "next_attempt_at = NULL, created_at = $2 WHERE message_id = $1",
      [early, `${day}T08:00:00Z`],
    );
    await db.pool.query(
      "UPDATE outbound_deliveries SET status = 'succeeded', " +
        "next_attempt_at = NULL, created_at = $2 WHERE message_id = $1",
      [late, `${day}T10:00:00Z`],
    );

    // 10:30 in Berlin is 09:30 UTC (08:30 in summer time): only the later delivery.
    const replay = (since: string) => {
      const data = new FormData();
      data.set("subscriptionId", subscription.id);
      data.set("since", since);
      return replaySinceAction(data);
    };
    expect(await replay(`${day}T10:30`)).toEqual({ ok: true, data: { message: "1 notification queued again." } });
    expect(await deliveryOf(subscription.id, late)).toMatchObject({ status: "pending" });
    expect(await deliveryOf(subscription.id, early)).toMatchObject({ status: "succeeded" });
    expect(await replay(`${day}T08:30`)).toEqual({ ok: true, data: { message: "2 notifications queued again." } });
    expect(await replay("")).toMatchObject({ ok: false, fieldErrors: { since: ["Enter a date and time."] } });
    expect(await replay("2999-01-01T00:00")).toMatchObject({
      ok: false,
      fieldErrors: { since: ["Choose a moment in the past."] },
    });
  });

  it("lists the attempts on the page, and the failing notice counts the failed ones in words", async () => {
    const { subscription, delivery } = await ownerWithDelivery();
    // Within the 30 days the attempt log keeps (and lists).
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    const failingSince = new Date(
      Date.UTC(threeDaysAgo.getUTCFullYear(), threeDaysAgo.getUTCMonth(), threeDaysAgo.getUTCDate(), 14, 5),
    );
    const day = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(failingSince);
    for (const [n, minutes] of [
      [1, 0],
      [2, 1],
      [3, 6],
    ] as const) {
      await db.pool.query(
        `INSERT INTO outbound_attempts (account_id, delivery_id, delivery_created_at, subscription_id, attempt,
          attempted_at, status_code, duration_ms, response_excerpt, error, outcome)
         SELECT d.account_id, d.id, d.created_at, $2, $3, $4, 500, 42, 'upstream exploded',
           'The receiver answered 500 instead of a 2xx status.', 'retry'
         FROM outbound_deliveries d WHERE d.id = $1`,
        [delivery.id, subscription.id, n, new Date(failingSince.getTime() + minutes * 60_000)],
      );
    }
    await db.prisma.webhookSubscription.updateMany({
      where: { id: subscription.id },
      data: {
        failingSince,
        lastDeliveryAt: new Date(failingSince.getTime() + 6 * 60_000),
        lastDeliveryOk: false,
        lastError: "The receiver answered 500 instead of a 2xx status.",
      },
    });
    const detail = renderedText(await detailPage(subscription.id));
    expect(detail).toContain(
      `The receiver answered 500 Internal Server Error on the last 3 attempts since ${day}, 14:05 UTC.`,
    );
    expect(detail).toContain("upstream exploded");
    expect(detail).toContain("lead.created");
  });
});
