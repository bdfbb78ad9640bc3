import { describe, expect, it } from "vitest";
import type { SessionContext } from "@/lib/auth/session";
import { db } from "@/lib/platform/db/client";
import { listEvents } from "@/lib/events/list";
import { decryptSecret } from "@/lib/platform/crypto/secrets";
import {
  createSource as createWebhookSource,
  endpointUrl,
  getSource,
  listSources,
  readSecret,
  rotateSecret,
  setSourceActive,
  updateSourceSettings,
} from "@/lib/events-webhook/sources";
import { sendTestEvent } from "@/lib/events-webhook/test-event";
import { addMember, createAccount } from "../../support/factories";
import { createSource, sample, send, upsert } from "./support";

const auditActions = async (accountId: string) =>
  (
    await db.pool.query("SELECT action FROM audit_log WHERE account_id = $1 ORDER BY created_at, id", [accountId])
  ).rows.map((row) => row.action);

const asMember = async (context: SessionContext, role: "admin" | "member"): Promise<SessionContext> => ({
  ...context,
  user: await addMember(context.account.id, role),
  role,
});

/** How a source operation refuses: a member may not manage sources; another account's source is not found. */
const refused = (code: "forbidden" | "not_found") => ({ ok: false, code });

describe("a new account", () => {
  it("has one active source ready: an unguessable id, an encrypted whsec_ secret, the default rate limit", async () => {
    const { accountId } = await createAccount();
    const sources = await listSources(accountId);
    expect(sources).toHaveLength(1);
    const [source] = sources;
    expect(source).toMatchObject({
      name: "Default source",
      active: true,
      rateLimitPerMinute: 300,
      secretRotatedAt: null,
    });
    expect(source.publicId).toMatch(/^src_[0-9A-Za-z]{24}$/);
    expect(source.endpointUrl).toBe(`http://localhost:3000/api/v1/events/webhook/${source.publicId}`);
    const secret = await readSecret(accountId, source.id);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = (await db.pool.query("SELECT secret_ciphertext FROM webhook_sources WHERE id = $1", [source.id]))
      .rows[0].secret_ciphertext;
    expect(stored).not.toContain(secret!.slice(6));
    expect(decryptSecret(stored)).toBe(secret);
    expect(await auditActions(accountId)).toEqual(["webhook_source.created"]);
  });

  it("builds endpoint URLs from APP_BASE_URL", () => {
    const saved = process.env.APP_BASE_URL;
    process.env.APP_BASE_URL = "https://events.example.com/";
    try {
      expect(endpointUrl("src_abc")).toBe("https://events.example.com/api/v1/events/webhook/src_abc");
    } finally {
      process.env.APP_BASE_URL = saved;
    }
  });
});

describe("creating sources", () => {
  it("allows the free plan's 3 sources and then refuses with a clear message", async () => {
    const { context } = await createSource();
    expect((await createWebhookSource(context, "CRM")).ok).toBe(true);
    const third = await createWebhookSource(context, "  Booking platform ");
    expect(third).toMatchObject({ ok: true, source: { name: "Booking platform", active: true } });
    const fourth = await createWebhookSource(context, "One too many");
    expect(fourth).toEqual({
      ok: false,
      code: "plan_limit_reached",
      message: "Your plan allows 3 webhook sources. Delete or reuse one, or upgrade the plan.",
    });
    expect(await listSources(context.account.id)).toHaveLength(3);
    expect(
      (await auditActions(context.account.id)).filter((action) => action === "webhook_source.created"),
    ).toHaveLength(3);
  });

  it("never exceeds the limit when two creations race", async () => {
    const { context } = await createSource();
    await createWebhookSource(context, "Second");
    const results = await Promise.all([createWebhookSource(context, "Race A"), createWebhookSource(context, "Race B")]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(await listSources(context.account.id)).toHaveLength(3);
  });

  it("validates the name and refuses members", async () => {
    const { context } = await createSource();
    expect(await createWebhookSource(context, "  ")).toMatchObject({ ok: false, code: "invalid", field: "name" });
    expect(await createWebhookSource(await asMember(context, "member"), "Nope")).toMatchObject(refused("forbidden"));
    expect((await createWebhookSource(await asMember(context, "admin"), "By an admin")).ok).toBe(true);
  });
});

describe("activating and deactivating", () => {
  it("switches the webhook between 403 source_inactive and accepting, with audit entries", async () => {
    const source = await createSource();
    expect(await setSourceActive(source.context, source.sourceId, false)).toMatchObject({
      ok: true,
      source: { active: false },
    });
    expect((await send(source, upsert(sample()))).body).toMatchObject({ error: { code: "source_inactive" } });
    await setSourceActive(source.context, source.publicId, true);
    expect((await send(source, upsert(sample()))).status).toBe(200);
    expect(await auditActions(source.accountId)).toEqual([
      "webhook_source.created",
      "webhook_source.deactivated",
      "webhook_source.activated",
    ]);
  });
});

describe("settings", () => {
  it("renames and changes the rate limit within bounds, audited", async () => {
    const source = await createSource();
    const updated = await updateSourceSettings(source.context, source.sourceId, {
      name: "CRM",
      rateLimitPerMinute: 600,
    });
    expect(updated).toMatchObject({ ok: true, source: { name: "CRM", rateLimitPerMinute: 600 } });
    expect((await send(source, upsert(sample()))).headers.get("RateLimit-Limit")).toBe("600");
    for (const rateLimitPerMinute of [0, 1.5, 100_001]) {
      expect(await updateSourceSettings(source.context, source.sourceId, { rateLimitPerMinute })).toMatchObject({
        ok: false,
        field: "rateLimitPerMinute",
      });
    }
    const audit = await db.pool.query(
      "SELECT metadata FROM audit_log WHERE account_id = $1 AND action = 'webhook_source.updated'",
      [source.accountId],
    );
    expect(audit.rows[0].metadata).toEqual({
      name: { from: "Default source", to: "CRM" },
      rateLimitPerMinute: { from: 300, to: 600 },
    });
  });
});

describe("rotating the secret", () => {
  it("replaces the secret atomically: readSecret returns the new one, the old one gets 401 at once", async () => {
    const source = await createSource();
    const rotated = await rotateSecret(source.context, source.sourceId);
    if (!rotated.ok) throw new Error(rotated.message);
    expect(rotated.secret).not.toBe(source.secret);
    expect(rotated.source.secretRotatedAt).toBeInstanceOf(Date);
    expect(await readSecret(source.accountId, source.sourceId)).toBe(rotated.secret);
    expect((await send(source, upsert(sample()))).status).toBe(401);
    expect((await send(source, upsert(sample()), { secret: rotated.secret })).status).toBe(200);
    expect(await auditActions(source.accountId)).toContain("webhook_source.secret_rotated");
    expect(await rotateSecret(await asMember(source.context, "member"), source.sourceId)).toMatchObject(
      refused("forbidden"),
    );
  });
});

describe("Send test event", () => {
  it("delivers a signed sample upsert through the webhook handler; the event then appears in All Events", async () => {
    const source = await createSource();
    const result = await sendTestEvent(source.context, source.sourceId);
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      body: { ok: true, action: "upsert", event: { created: true } },
    });
    const page = await listEvents(source.accountId);
    expect(page.items.map((event) => event.title)).toEqual(["Webhook test event"]);
    const again = await sendTestEvent(source.context, source.publicId);
    expect(again).toMatchObject({ ok: true, status: 200, body: { event: { created: false } } });
    const logged = await db.pool.query(
      "SELECT headers->>'user_agent' AS agent FROM webhook_deliveries WHERE source_id = $1",
      [source.sourceId],
    );
    expect(logged.rows.map((row) => row.agent)).toEqual(["dashboard-test-event/1", "dashboard-test-event/1"]);
  });

  it("reports what the webhook answered, e.g. 403 for an inactive source", async () => {
    const source = await createSource();
    await setSourceActive(source.context, source.sourceId, false);
    expect(await sendTestEvent(source.context, source.sourceId)).toMatchObject({
      ok: true,
      status: 403,
      body: { error: { code: "source_inactive" } },
    });
    expect(await sendTestEvent(await asMember(source.context, "member"), source.sourceId)).toMatchObject(
      refused("forbidden"),
    );
  });
});

describe("isolation between accounts", () => {
  it("does not let one account read or change another account's source", async () => {
    const victim = await createSource();
    const attacker = await createSource();
    for (const id of [victim.sourceId, victim.publicId]) {
      expect(await getSource(attacker.accountId, id)).toBeNull();
      expect(await readSecret(attacker.accountId, id)).toBeNull();
      expect(await setSourceActive(attacker.context, id, false)).toMatchObject(refused("not_found"));
      expect(await updateSourceSettings(attacker.context, id, { name: "pwned" })).toMatchObject(refused("not_found"));
      expect(await rotateSecret(attacker.context, id)).toMatchObject(refused("not_found"));
      expect(await sendTestEvent(attacker.context, id)).toMatchObject(refused("not_found"));
    }
    expect(await getSource(victim.accountId, victim.sourceId)).toMatchObject({ name: "Default source", active: true });
    expect(await readSecret(victim.accountId, victim.sourceId)).toBe(victim.secret);
    expect(await getSource(victim.accountId, "../../etc")).toBeNull();
  });
});
