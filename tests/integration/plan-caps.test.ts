import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/keys";
import { db } from "@/lib/platform/db/client";
import { createSource as createWebhookSource } from "@/lib/events-webhook/sources";
import { importEvents, type ValidRow } from "@/lib/events/csv-import";
import { createEvent, eventUsage, upsertEvent } from "@/lib/events/repository";
import { parseEventFields } from "@/lib/events/schema";
import { createAccount } from "../support/factories";
import { createSource, send, upsert } from "./events-webhook/support";
import { fillEvents } from "../support/stored";

/*
 * Plan caps are exact under concurrency: writers racing for the last slots of an account never
 * overshoot, whichever way they write (webhook, dashboard, CSV import), and never deadlock.
 */

const countEvents = async (accountId: string) =>
  (await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE account_id = $1", [accountId]))
    .rows[0].n;

const tally = (statuses: Array<number | string>) =>
  statuses.reduce<Record<string, number>>((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {});

const row = (line: number, title: string): ValidRow => {
  const parsed = parseEventFields({ title, starts_at: "2027-01-01T10:00:00Z" });
  if (!parsed.ok) throw new Error("invalid row");
  return { line, input: parsed.value };
};

describe("the free plan's 1,000-event cap under concurrency", () => {
  it("turns 60 parallel creating upserts at 995 events into exactly 1,000 events and 55 × 403", async () => {
    const source = await createSource({ rateLimit: 10_000 });
    await fillEvents(source.accountId, 995);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        send(source, upsert({ title: `Race ${i}`, starts_at: "2027-01-01T10:00:00Z" })),
      ),
    );
    expect(tally(answers.map((answer) => answer.status))).toEqual({ 200: 5, 403: 55 });
    for (const answer of answers.filter((answer) => answer.status === 403)) {
      expect(answer.body).toMatchObject({ ok: false, error: { code: "plan_limit_reached" } });
    }
    expect(await countEvents(source.accountId)).toBe(1_000);
    expect((await eventUsage(source.accountId)).count).toBe(1_000);
  });

  it("holds for 60 parallel dashboard creates and upserts at 995 events", async () => {
    const { accountId } = await createAccount();
    await fillEvents(accountId, 995);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? createEvent : upsertEvent)(accountId, { title: `Dashboard ${i}`, starts_at: "2027-01-01T10:00:00Z" }),
      ),
    );
    expect(tally(results.map((result) => (result.ok ? "ok" : result.code)))).toEqual({ ok: 5, plan_limit_reached: 55 });
    expect(await countEvents(accountId)).toBe(1_000);
  });

  it("holds when a CSV import and webhook upserts race for the last slots, and updates still pass", async () => {
    const source = await createSource({ rateLimit: 10_000 });
    await fillEvents(source.accountId, 990);
    const csvRows = Array.from({ length: 30 }, (_, i) => row(i + 2, `Imported ${i}`));
    const [summary, ...answers] = await Promise.all([
      importEvents(source.accountId, csvRows),
      ...Array.from({ length: 30 }, (_, i) =>
        send(source, upsert({ title: `Webhook ${i}`, starts_at: "2027-01-01T10:00:00Z" })),
      ),
    ]);
    const webhookCreated = answers.filter((answer) => answer.status === 200).length;
    expect(summary.created + webhookCreated).toBe(10);
    expect(summary.failed).toBe(30 - summary.created);
    expect(await countEvents(source.accountId)).toBe(1_000);
    // At the cap, an update of an existing event is still applied.
    expect(
      (await send(source, upsert({ title: "Filler 1", starts_at: "2026-01-01T01:00:00Z", description: "updated" })))
        .status,
    ).toBe(200);
  });
});

describe("other plan caps under concurrency", () => {
  it("creates exactly up to the free plan's three webhook sources from 10 parallel requests", async () => {
    const owner = await createWebhookSourceOwner();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createWebhookSource(owner, `Parallel ${i}`)),
    );
    expect(tally(results.map((result) => (result.ok ? "ok" : result.code)))).toEqual({ ok: 2, plan_limit_reached: 8 });
    expect(await db.prisma.webhookSource.count({ where: { accountId: owner.account.id } })).toBe(3);
  });

  it("creates exactly up to 100 active API keys from 20 parallel requests at 95", async () => {
    const owner = await createAccount();
    await db.pool.query(
      `INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, scopes)
       SELECT $1::uuid, 'Key ' || n, md5($1::text || n::text), 'ik_live_xxxx', 'abcd', ARRAY['webhooks']
         FROM generate_series(1, 95) AS n`,
      [owner.accountId],
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createApiKey(
          { accountId: owner.accountId, user: owner.user },
          { name: `Parallel ${i}`, scopes: ["webhooks"], expiresAt: null },
        ),
      ),
    );
    expect(tally(results.map((result) => (result.ok ? "ok" : result.code)))).toEqual({ ok: 5, plan_limit_reached: 15 });
    expect(await db.prisma.apiKey.count({ where: { accountId: owner.accountId, revokedAt: null } })).toBe(100);
  });
});

async function createWebhookSourceOwner() {
  const account = await createAccount();
  return {
    user: account.user,
    account: { id: account.accountId, name: "Caps", plan: "free" as const, timezone: "UTC" },
    role: "owner" as const,
  };
}
