import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { poolClientClass } from "@/lib/platform/db/pooler";
import { createWebhookHandler } from "@/lib/events-webhook/handler";
import { newPublicId } from "@/lib/platform/ids";
import { encryptSecret, generateSecret } from "@/lib/platform/crypto/secrets";
import { rotateSecret } from "@/lib/events-webhook/sources";
import { db } from "@/lib/platform/db/client";
import { outageDatabase } from "../../support/outage-database";
import { createSource, eventRows, nowSeconds, sample, send, signedRequest, upsert, type TestSource } from "./support";

const pools: pg.Pool[] = [];
/** A second app instance: its own pool on the same database, as another process would have. */
function otherInstance(connectionString = process.env.DATABASE_URL!) {
  // Configured as the app's own pool is (lib/platform/db/client.ts), pooler setting included.
  const pool = new pg.Pool({ connectionString, Client: poolClientClass(), max: 10, connectionTimeoutMillis: 3_000 });
  pool.on("error", () => {});
  pools.push(pool);
  return createWebhookHandler({ pool });
}
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
});

describe("concurrency", () => {
  it("turns 50 concurrent identical signed upserts into exactly one event and 50 answers of 200", async () => {
    const source = await createSource({ rateLimit: 1_000 });
    const body = upsert(sample({ description: "racing" }));
    const timestamp = String(nowSeconds());
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(source, body, { timestamp })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((answer) => answer.body.duplicate !== true).length).toBeGreaterThanOrEqual(1);
    expect(await eventRows(source)).toHaveLength(1);
  });

  it("turns 50 concurrent upserts of one event with different timestamps into one event, all processed", async () => {
    const source = await createSource({ rateLimit: 1_000 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send(source, upsert(sample({ description: `writer ${i}` })), { timestamp: String(nowSeconds() - i) }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    expect(answers.every((answer) => answer.body.action === "upsert")).toBe(true);
    expect(answers.filter((answer) => (answer.body.event as { created: boolean }).created)).toHaveLength(1);
    expect(await eventRows(source)).toHaveLength(1);
    const count = await db.pool.query("SELECT event_count FROM accounts WHERE id = $1", [source.accountId]);
    expect(count.rows[0].event_count).toBe(1);
  });
});

describe("two app instances on one database", () => {
  it("share one rate limit", async () => {
    const source = await createSource({ rateLimit: 10 });
    const [a, b] = [otherInstance(), otherInstance()];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await send(source, upsert(sample({ title: `Event ${i}` })), { handler: i % 2 ? a : b })).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("see a rotation immediately: the old secret fails on the other instance's very next request", async () => {
    const source: TestSource = await createSource();
    const [a, b] = [otherInstance(), otherInstance()];
    expect((await send(source, upsert(sample()), { handler: a })).status).toBe(200);
    expect((await send(source, upsert(sample({ title: "warm b" })), { handler: b })).status).toBe(200);
    const rotated = await rotateSecret(source.context, source.sourceId);
    if (!rotated.ok) throw new Error(rotated.message);
    for (const handler of [a, b]) {
      expect((await send(source, upsert(sample({ title: "old" })), { handler })).status).toBe(401);
      expect((await send(source, upsert(sample({ title: "new" })), { handler, secret: rotated.secret })).status).toBe(
        200,
      );
    }
  });
});

describe("an instance that has the source cached", () => {
  it("sees deactivation, a new rate limit and deletion on its very next request", async () => {
    const source = await createSource();
    const warm = otherInstance();
    expect((await send(source, upsert(sample()), { handler: warm })).status).toBe(200);

    await db.pool.query("UPDATE webhook_sources SET active = false WHERE id = $1", [source.sourceId]);
    expect((await send(source, upsert(sample({ title: "while off" })), { handler: warm })).body).toMatchObject({
      error: { code: "source_inactive" },
    });
    await db.pool.query("UPDATE webhook_sources SET active = true, rate_limit_per_minute = 2 WHERE id = $1", [
      source.sourceId,
    ]);
    const limited = await send(source, upsert(sample({ title: "limit 2" })), { handler: warm });
    expect(limited.headers.get("RateLimit-Limit")).toBe("2");
    expect((await send(source, upsert(sample({ title: "over" })), { handler: warm })).status).toBe(429);

    await db.pool.query("DELETE FROM webhook_sources WHERE id = $1", [source.sourceId]);
    expect((await send(source, upsert(sample({ title: "gone" })), { handler: warm })).body).toMatchObject({
      error: { code: "source_not_found" },
    });
    // The delivery log and replay records of a deleted source go with it.
    const left = await db.pool.query(
      "SELECT (SELECT count(*) FROM webhook_deliveries WHERE source_id = $1)::int AS deliveries, " +
        "(SELECT count(*) FROM webhook_replays WHERE source_id = $1)::int AS replays",
      [source.sourceId],
    );
    expect(left.rows[0]).toEqual({ deliveries: 0, replays: 0 });
  });
});

describe("database outage", () => {
  const outage = outageDatabase("webhook-outage-");

  it(
    "answers 503 within 5 s while the database is down, resumes when it is back, and loses no 200",
    { timeout: 120_000 },
    async () => {
      const database = await outage.start();
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      const secret = generateSecret();
      const publicId = newPublicId("source");
      const account = await admin.query("INSERT INTO accounts (name, plan) VALUES ('Outage', 'pro') RETURNING id");
      const created = await admin.query(
        "INSERT INTO webhook_sources (account_id, public_id, name, secret_ciphertext, " +
          "rate_limit_per_minute) VALUES ($1, $2, 'Outage', $3, 100000) RETURNING id",
        [account.rows[0].id, publicId, encryptSecret(secret)],
      );
      await admin.end();
      const source = { publicId, secret, sourceId: created.rows[0].id } as TestSource;
      const handler = otherInstance(database.url);

      const results: { title: string; status: number; ms: number; phase: string }[] = [];
      let phase = "before";
      let sequence = 0;
      let running = true;
      const worker = async () => {
        while (running) {
          const title = `Delivery ${++sequence}`;
          const started = performance.now();
          const response = await handler(
            signedRequest(source, upsert({ title, starts_at: "2026-05-01T10:00:00Z" })),
            publicId,
          );
          results.push({ title, status: response.status, ms: performance.now() - started, phase });
          if (response.status === 503) {
            expect(response.headers.get("Retry-After")).toBe("5");
            expect(await response.json()).toMatchObject({ ok: false, error: { code: "unavailable" } });
          }
          if (response.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const workers = Array.from({ length: 4 }, worker);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      phase = "down";
      await outage.stop();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      phase = "restarting";
      const restarted = await outage.restart();
      phase = "back";
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      running = false;
      await Promise.all(workers);

      const byPhase = (name: string) => results.filter((result) => result.phase === name);
      expect(byPhase("before").filter((r) => r.status === 200).length).toBeGreaterThan(0);
      expect(byPhase("down").length).toBeGreaterThan(0);
      expect(byPhase("down").filter((r) => r.status !== 200 && r.status !== 503)).toEqual([]);
      expect(results.every((r) => r.status === 200 || r.status === 503)).toBe(true);
      expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(5_000);
      expect(byPhase("back").filter((r) => r.status === 200).length).toBeGreaterThan(0);

      const check = new pg.Client({ connectionString: restarted.url });
      await check.connect();
      const stored = new Set((await check.query("SELECT title FROM events")).rows.map((row) => row.title as string));
      await check.end();
      const missing = results.filter((r) => r.status === 200 && !stored.has(r.title));
      expect(missing).toEqual([]);
    },
  );
});
