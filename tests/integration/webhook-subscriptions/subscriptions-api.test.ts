import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { decryptSecret } from "@/lib/platform/crypto/secrets";
import {
  revealSubscriptionSecret,
  rotateSubscriptionSecret,
  signingSecrets,
  disableSubscription,
} from "@/lib/webhook-subscriptions/store";
import { createAccount, type TestAccount } from "../../support/factories";
import {
  accountWithWebhooksKey,
  api,
  errorOf,
  storedSubscription,
  subscriptionCount,
  fakeResolverForTests,
  webhooksKey,
} from "./client";

let owner: TestAccount;
let secret: string;
fakeResolverForTests();
beforeAll(async () => ({ owner, key: secret } = await accountWithWebhooksKey("Subscriptions Owner")));

const auditActions = async (accountId: string, targetId: string) =>
  (
    await db.pool.query<{ action: string; actor_label: string; metadata: Record<string, unknown> }>(
      "SELECT action, actor_label, metadata FROM audit_log WHERE account_id " +
        "= $1 AND target_id = $2 ORDER BY created_at, id",
      [accountId, targetId],
    )
  ).rows;

async function create(body: object, key = secret) {
  const response = await api.create(key, body);
  expect(response.status).toBe(201);
  return response.json();
}

describe("POST /api/public/webhooks", () => {
  it("creates a subscription: 201, the secret once, stored encrypted, audited with the API key as actor", async () => {
    const response = await api.create(secret, {
      url: "https://hooks.example.test/in",
      event_types: ["lead.created", "lead.created", "event.*"],
      description: " Slack ",
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^whsub_[0-9A-Za-z]{22}$/),
      url: "https://hooks.example.test/in",
      event_types: ["lead.created", "event.*"],
      description: "Slack",
      status: "active",
      disabled_reason: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: body.created_at,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(body.secret.slice(6), "base64")).toHaveLength(32);
    expect(response.headers.get("Location")).toBe(`/api/public/webhooks/${body.id}`);
    const row = await storedSubscription(body.id);
    expect(row.account_id).toBe(owner.accountId);
    expect(row.secret_ciphertext).not.toContain(body.secret.slice(6, 20));
    expect(decryptSecret(row.secret_ciphertext)).toBe(body.secret);
    const [entry] = await auditActions(owner.accountId, body.id);
    expect(entry).toMatchObject({
      action: "webhook_subscription.created",
      actor_label: expect.stringMatching(/^API key "Zapier" \(ik_live_/),
    });
    expect(entry.metadata.api_key_id).toEqual(expect.any(String));
    // The secret never appears again.
    expect(await (await api.get(secret, body.id)).json()).not.toHaveProperty("secret");
  });

  it('accepts Zapier\'s legacy {target_url, event} form and ["*"]', async () => {
    const legacy = await create({
      target_url: "https://zapier.example.test/hooks/standard/1/abc",
      event: "lead.stage_changed",
    });
    expect(legacy).toMatchObject({
      url: "https://zapier.example.test/hooks/standard/1/abc",
      event_types: ["lead.stage_changed"],
      description: "",
    });
    const all = await create({ url: "https://hooks.example.test/all", event_types: ["*", "lead.created"] });
    expect(all.event_types).toEqual(["*"]);
  });

  it("replays the first answer for a repeated Idempotency-Key and creates once", async () => {
    const account = await createAccount("Subscriptions Idempotency");
    const key = await webhooksKey(account);
    const headers = { "Idempotency-Key": "sub-1" };
    const first = await api.create(key, { url: "https://hooks.example.test/i", event_types: ["*"] }, { headers });
    const again = await api.create(key, { url: "https://hooks.example.test/i", event_types: ["*"] }, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await again.json()).id).toBe((await first.json()).id);
    expect(await subscriptionCount(account.accountId)).toBe(1);
    const reused = await api.create(key, { url: "https://hooks.example.test/other", event_types: ["*"] }, { headers });
    expect(reused.status).toBe(409);
  });
});

describe("plan limits", () => {
  it("stops the free plan at exactly 10 subscriptions when 15 creates race at 8", async () => {
    const account = await createAccount("Subscriptions Free Cap");
    const key = await webhooksKey(account);
    for (let n = 0; n < 8; n += 1) await create({ url: `https://hooks.example.test/${n}`, event_types: ["*"] }, key);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, n) =>
        api.create(key, { url: `https://hooks.example.test/race/${n}`, event_types: ["*"] }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 403)).toHaveLength(13);
    const refused = answers.find((answer) => answer.status === 403)!;
    expect(await errorOf(refused)).toMatchObject({
      code: "plan_limit_reached",
      message: expect.stringContaining("10"),
    });
    expect(await subscriptionCount(account.accountId)).toBe(10);
  });

  it("allows 100 on the pro plan", async () => {
    const account = await createAccount("Subscriptions Pro Cap");
    await db.pool.query("UPDATE accounts SET plan = 'pro' WHERE id = $1", [account.accountId]);
    const key = await webhooksKey(account);
    await db.pool.query(
      `INSERT INTO webhook_subscriptions (id, account_id, url, event_types, secret_ciphertext)
       SELECT 'whsub_' || lpad(n::text, 22, '0'), $1, 'https://hooks.example.test/', '{*}', 'x'
         FROM generate_series(1, 99) n`,
      [account.accountId],
    );
    expect((await api.create(key, { url: "https://hooks.example.test/100", event_types: ["*"] })).status).toBe(201);
    expect((await api.create(key, { url: "https://hooks.example.test/101", event_types: ["*"] })).status).toBe(403);
  });
});

describe("GET, PATCH, DELETE /api/public/webhooks/{id}", () => {
  it("reads, updates partially, disables, re-enables and deletes (204, empty body), with audit entries", async () => {
    const created = await create({
      url: "https://hooks.example.test/crud",
      event_types: ["lead.created"],
      description: "CRM",
    });
    const { secret: shownOnce, ...withoutSecret } = created;
    expect(shownOnce).toMatch(/^whsec_/);
    expect(await (await api.get(secret, created.id)).json()).toEqual(withoutSecret);

    const patched = await api.patch(secret, created.id, { event_types: ["lead.updated"], unknown: 1 });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      url: "https://hooks.example.test/crud",
      event_types: ["lead.updated"],
      description: "CRM",
    });

    const disabled = await (await api.patch(secret, created.id, { status: "disabled" })).json();
    expect(disabled).toMatchObject({ status: "disabled", disabled_reason: 'Disabled through the API (key "Zapier").' });

    await db.pool.query("UPDATE webhook_subscriptions SET failing_since = now() - interval '2 days' WHERE id = $1", [
      created.id,
    ]);
    const enabled = await (await api.patch(secret, created.id, { status: "active", description: null })).json();
    expect(enabled).toMatchObject({ status: "active", disabled_reason: null, description: "" });
    const row = await storedSubscription(created.id);
    expect(row).toMatchObject({ failing_since: null, disabled_at: null });

    const deleted = await api.delete(secret, created.id);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect(await storedSubscription(created.id)).toBeNull();
    expect((await api.get(secret, created.id)).status).toBe(404);
    expect((await api.delete(secret, created.id)).status).toBe(404);

    // One PATCH both re-enabled it and cleared its description: two entries that may share a millisecond
    // (and then come in the order of their random ids), so they are compared as a set.
    const actions = (await auditActions(owner.accountId, created.id)).map((entry) => entry.action);
    expect(actions.slice(0, 3)).toEqual([
      "webhook_subscription.created",
      "webhook_subscription.updated",
      "webhook_subscription.disabled",
    ]);
    expect(actions.slice(3, 5).sort()).toEqual(["webhook_subscription.enabled", "webhook_subscription.updated"]);
    expect(actions.slice(5)).toEqual(["webhook_subscription.deleted"]);
  });

  it("answers 404 for another account's subscription and changes nothing", async () => {
    const other = await createAccount("Subscriptions Other");
    const otherKey = await webhooksKey(other);
    const theirs = await create({ url: "https://hooks.example.test/theirs", event_types: ["*"] }, otherKey);
    for (const response of [
      await api.get(secret, theirs.id),
      await api.patch(secret, theirs.id, { status: "disabled" }),
      await api.delete(secret, theirs.id),
    ]) {
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe("not_found");
    }
    expect(await storedSubscription(theirs.id)).toMatchObject({ status: "active" });
    expect((await api.get(secret, "whsub_nonsense")).status).toBe(404);
    const list = await (await api.list(secret, "?limit=100")).json();
    expect(list.data.map((item: { id: string }) => item.id)).not.toContain(theirs.id);
  });
});

describe("audit entries", () => {
  it("name a subscription by its URL's origin and path only: a token in the query is never recorded", async () => {
    const hook = "https://zapier.example.test/hooks/catch/1/abc/";
    const created = await create({ url: `${hook}?token=first-t0ken#frag`, event_types: ["*"] });
    expect(created.url).toBe(`${hook}?token=first-t0ken`);
    const context = { accountId: owner.accountId, actor: { type: "user" as const, user: owner.user } };
    const moved = "https://hooks.example.test/moved";
    expect((await api.patch(secret, created.id, { url: `${moved}?key=second-t0ken` })).status).toBe(200);
    expect((await api.patch(secret, created.id, { status: "disabled" })).status).toBe(200);
    expect((await rotateSubscriptionSecret(context, created.id)).ok).toBe(true);
    expect((await revealSubscriptionSecret(context, created.id)).ok).toBe(true);
    expect(await disableSubscription(owner.accountId, created.id, "gone")).toBe(false);
    expect((await api.delete(secret, created.id)).status).toBe(204);

    const { rows } = await db.pool.query<{ action: string; target_label: string; metadata: Record<string, unknown> }>(
      `SELECT action, target_label, metadata FROM audit_log
        WHERE account_id = $1 AND target_id = $2 ORDER BY created_at, id`,
      [owner.accountId, created.id],
    );
    expect(rows.map((row) => row.action)).toHaveLength(6);
    expect(JSON.stringify(rows)).not.toMatch(/t0ken|frag/);
    expect(rows[0].target_label).toBe(hook);
    const updated = rows.find((row) => row.action === "webhook_subscription.updated");
    expect(updated?.metadata.url).toEqual({ from: hook, to: moved });
    expect(rows.at(-1)).toMatchObject({ action: "webhook_subscription.deleted", target_label: moved });
  });
});

describe("the webhooks scope", () => {
  it("answers 403 insufficient_scope naming webhooks on every path for a key without it", async () => {
    const key = await webhooksKey(owner, ["read:leads", "write:leads"]);
    const id = "whsub_0000000000000000000000";
    const answers = [
      await api.list(key),
      await api.create(key, { url: "https://hooks.example.test/", event_types: ["*"] }),
      await api.get(key, id),
      await api.patch(key, id, {}),
      await api.delete(key, id),
      await api.events(key),
    ];
    for (const response of answers) {
      expect(response.status).toBe(403);
      const error = await errorOf(response);
      expect(error).toMatchObject({ code: "insufficient_scope", details: [{ scope: "webhooks" }] });
      expect(response.headers.get("WWW-Authenticate")).toContain('scope="webhooks"');
    }
  });
});

describe("GET /api/public/webhooks", () => {
  it("lists newest first in pages, and oldest first with order=asc", async () => {
    const account = await createAccount("Subscriptions List");
    const key = await webhooksKey(account);
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1)
      ids.push((await create({ url: `https://hooks.example.test/${n}`, event_types: ["*"] }, key)).id);
    const first = await (await api.list(key, "?limit=2")).json();
    expect(first.data.map((item: { id: string }) => item.id)).toEqual([ids[4], ids[3]]);
    expect(first.has_more).toBe(true);
    const second = await (await api.list(key, `?limit=2&cursor=${first.next_cursor}`)).json();
    const third = await (await api.list(key, `?limit=2&cursor=${second.next_cursor}`)).json();
    expect([...second.data, ...third.data].map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(third).toMatchObject({ has_more: false, next_cursor: null });
    const asc = await (await api.list(key, "?order=asc&limit=100")).json();
    expect(asc.data.map((item: { id: string }) => item.id)).toEqual(ids);
  });
});

describe("secrets", () => {
  it("rotation keeps the old secret signing for 24 hours, then only the new one", async () => {
    const created = await create({ url: "https://hooks.example.test/rotate", event_types: ["*"] });
    const context = { accountId: owner.accountId, actor: { type: "user" as const, user: owner.user } };
    const rotated = await rotateSubscriptionSecret(context, created.id);
    if (!rotated.ok) throw new Error("rotation failed");
    expect(rotated.secret).not.toBe(created.secret);
    expect(await signingSecrets(owner.accountId, created.id)).toEqual([rotated.secret, created.secret]);
    const almostDay = new Date(Date.now() + 23.9 * 3600_000);
    expect(await signingSecrets(owner.accountId, created.id, almostDay)).toEqual([rotated.secret, created.secret]);
    const afterDay = new Date(Date.now() + 24 * 3600_000 + 1_000);
    expect(await signingSecrets(owner.accountId, created.id, afterDay)).toEqual([rotated.secret]);
    expect(await signingSecrets("00000000-0000-4000-8000-000000000000", created.id)).toBeNull();
  });

  it("reveals the current secret to the dashboard with an audit entry naming the user", async () => {
    const created = await create({ url: "https://hooks.example.test/reveal", event_types: ["*"] });
    const revealed = await revealSubscriptionSecret(
      { accountId: owner.accountId, actor: { type: "user", user: owner.user } },
      created.id,
    );
    expect(revealed).toEqual({ ok: true, secret: created.secret });
    const entries = await auditActions(owner.accountId, created.id);
    expect(entries.at(-1)).toMatchObject({
      action: "webhook_subscription.secret_revealed",
      actor_label: `${owner.user.name} <${owner.user.email}>`,
    });
    const other = await createAccount("Subscriptions Reveal Other");
    expect(
      await revealSubscriptionSecret(
        { accountId: other.accountId, actor: { type: "user", user: other.user } },
        created.id,
      ),
    ).toEqual({ ok: false, code: "not_found", message: "This subscription does not exist." });
  });

  it("the system disables a subscription once, with its reason and an audit entry", async () => {
    const created = await create({ url: "https://hooks.example.test/gone", event_types: ["*"] });
    expect(await disableSubscription(owner.accountId, created.id, "The receiver answered 410 Gone.")).toBe(true);
    expect(await disableSubscription(owner.accountId, created.id, "again")).toBe(false);
    expect(await (await api.get(secret, created.id)).json()).toMatchObject({
      status: "disabled",
      disabled_reason: "The receiver answered 410 Gone.",
    });
    expect((await auditActions(owner.accountId, created.id)).at(-1)).toMatchObject({
      action: "webhook_subscription.disabled",
      actor_label: "System",
    });
  });
});
