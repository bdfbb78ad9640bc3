import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { getDelivery, listDeliveries } from "@/lib/events-webhook/deliveries";
import { handleWebhookRequest } from "@/lib/events-webhook/handler";
import { sweepRetention } from "@/lib/retention/sweep";
import { setSourceActive } from "@/lib/events-webhook/sources";
import { ensurePartitionsFor } from "../../support/partitions";
import {
  createSource,
  deliveryCount,
  lastDelivery,
  nowSeconds,
  sample,
  send,
  signedRequest,
  upsert,
  type TestSource,
} from "./support";

describe("what a delivery log entry holds", () => {
  it("logs an accepted request's time, action, status, title, latency, body, headers, never the secret", async () => {
    const source = await createSource();
    const body = upsert(sample({ description: "logged" }));
    const before = Date.now();
    await send(source, body, {
      headers: { "User-Agent": "booking-platform/2.1", "Content-Length": String(Buffer.byteLength(body)) },
    });
    const row = await lastDelivery(source);
    expect(row).toMatchObject({
      action: "upsert",
      status: 200,
      event_title: "Spring Open Day",
      error_code: null,
      body,
      body_bytes: Buffer.byteLength(body),
      headers: {
        content_type: "application/json",
        user_agent: "booking-platform/2.1",
        content_length: String(Buffer.byteLength(body)),
        timestamp: expect.stringMatching(/^\d{10}$/),
        signature_present: true,
        signature_valid: true,
      },
    });
    expect((row!.received_at as Date).getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(row!.latency_ms).toBeGreaterThanOrEqual(0);
    expect(row!.latency_ms).toBeLessThan(5_000);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(source.secret);
    expect(stored).not.toContain(source.secret.slice(6));
    expect(stored).not.toMatch(/sha256=/);
  });

  it("keeps the first 16 KiB of a larger body and its full size", async () => {
    const source = await createSource();
    const body = upsert(sample({ description: "é".repeat(4_000) + "x".repeat(12_000) }));
    await send(source, body);
    const row = await lastDelivery(source);
    expect(row!.body_bytes).toBe(Buffer.byteLength(body));
    expect(
      Buffer.from(row!.body as string)
        .subarray(0, 100)
        .toString(),
    ).toBe(Buffer.from(body).subarray(0, 100).toString());
    expect((row!.body as string).length).toBeLessThanOrEqual(16 * 1024);
    const detail = await getDelivery(source.accountId, row!.id as string);
    expect(detail).toMatchObject({ bodyTruncated: true, bodyBytes: Buffer.byteLength(body), action: "upsert" });
  });

  it("stores bodies with NUL bytes and invalid UTF-8 readably", async () => {
    const source = await createSource();
    await send(source, new Uint8Array([0x7b, 0x00, 0xff, 0x7d]));
    const row = await lastDelivery(source);
    expect(row).toMatchObject({ status: 400, error_code: "invalid_json", body: "{\uFFFD\uFFFD}", body_bytes: 4 });
  });
});

describe("429s in the log", () => {
  it("logs at most one rate-limited request per source per second", async () => {
    const source = await createSource({ rateLimit: 1 });
    await send(source, upsert(sample()));
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(source, upsert(sample({ title: `Flood ${i}` })))),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(answers.every((answer) => answer.status === 429)).toBe(true);
    const logged429 = async () =>
      (
        await db.pool.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE source_id = $1 AND status = 429", [
          source.sourceId,
        ])
      ).rows[0].n;
    const first = await logged429();
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await send(source, upsert(sample({ title: "After a second" })));
    expect(await logged429()).toBe(first + 1);
    expect(await deliveryCount(source)).toBe(1 + first + 1);
  });
});

describe("refusals anyone can send, in the log", () => {
  const logged = async (source: { sourceId: string }, where: string) =>
    (
      await db.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE source_id = $1 AND ${where}`, [
        source.sourceId,
      ])
    ).rows[0].n as number;
  /** Runs a flood; returns the most rows "once per source per second" allows for how long it took. */
  const flood = async <T>(run: () => Promise<T>) => {
    const started = Date.now();
    const value = await run();
    const elapsed = Date.now() - started;
    return { value, allowed: elapsed < 1_000 ? 2 : Math.ceil(elapsed / 1_000) + 1 };
  };

  it("stores one or two rows for 50 bad signatures in one second, and logs every accepted request", async () => {
    const source = await createSource();
    const { value: answers, allowed } = await flood(() =>
      Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          send(source, upsert(sample({ title: `Forged ${i}` })), { signature: "sha256=" + "0".repeat(64) }),
        ),
      ),
    );
    expect(answers.every((answer) => answer.status === 401)).toBe(true);
    const refused = await logged(source, "status = 401");
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(allowed);

    const accepted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(source, upsert(sample({ title: `Real ${i}` })))),
    );
    expect(accepted.every((answer) => answer.status === 200)).toBe(true);
    expect(await logged(source, "status = 200")).toBe(10);
  });

  it("throttles stale timestamps, an inactive source and exact replays the same way, per source", async () => {
    const source = await createSource();
    const other = await createSource();
    const stale = String(nowSeconds() - 3_600);
    const stales = await flood(() =>
      Promise.all(Array.from({ length: 20 }, () => send(source, upsert(sample()), { timestamp: stale }))),
    );
    await Promise.all(Array.from({ length: 20 }, () => send(other, upsert(sample()), { timestamp: stale })));
    expect(await logged(source, "error_code = 'invalid_timestamp'")).toBeLessThanOrEqual(stales.allowed);
    // Another source's flood neither shares nor uses up this source's allowance.
    expect(await logged(other, "error_code = 'invalid_timestamp'")).toBeGreaterThanOrEqual(1);

    const replayed = signedRequest(other, upsert(sample({ title: "Replayed" })));
    const body = upsert(sample({ title: "Replayed" }));
    expect((await handleWebhookRequest(replayed, other.publicId)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const replays = await flood(() =>
      Promise.all(
        Array.from({ length: 30 }, () =>
          handleWebhookRequest(
            new Request(replayed.url, { method: "POST", headers: replayed.headers, body }),
            other.publicId,
          ),
        ),
      ),
    );
    expect(replays.value.every((response) => response.status === 200)).toBe(true);
    const duplicates = await logged(other, "error_code = 'duplicate'");
    expect(duplicates).toBeGreaterThanOrEqual(1);
    expect(duplicates).toBeLessThanOrEqual(replays.allowed);

    await setSourceActive(other.context, other.sourceId, false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const inactive = await flood(() => Promise.all(Array.from({ length: 20 }, () => send(other, upsert(sample())))));
    expect(await logged(other, "error_code = 'source_inactive'")).toBeGreaterThanOrEqual(1);
    expect(await logged(other, "error_code = 'source_inactive'")).toBeLessThanOrEqual(inactive.allowed);
  });
});

describe("retention", () => {
  it("drops the log's days over 30 days old and replay days past their window, and deletes stale rate limits", async () => {
    const source = await createSource();
    const ages = [31, 31, 31, 45, 400, 29, 1, 0];
    const instants = ages.map((days) => new Date(Date.now() - days * 86_400_000 - 60_000));
    await ensurePartitionsFor("webhook_deliveries", instants);
    await db.pool.query(
      `INSERT INTO webhook_deliveries (account_id, source_id, received_at, status)
       SELECT $1, $2, t, 200 FROM unnest($3::timestamptz[]) AS t`,
      [source.accountId, source.sourceId, instants],
    );
    // Replay records by their signed time: three days ago (past its window and the day after), and now.
    await ensurePartitionsFor("webhook_replays", [new Date(Date.now() - 3 * 86_400_000)]);
    await db.pool.query(
      `INSERT INTO webhook_replays (account_id, source_id, signature, signed_at)
        VALUES ($1, $2, 'old', now() - interval '3 days'), ($1, $2, 'fresh', now() - interval '1 minute')`,
      [source.accountId, source.sourceId],
    );
    const nowMs = Date.now();
    await db.pool.query(`INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1, $2), ($3, 1, $4)`, [
      `test-stale-${source.sourceId}`,
      nowMs - 2 * 3_600_000,
      `test-live-${source.sourceId}`,
      nowMs + 60_000,
    ]);
    // The Overview's hourly counters go with the log they count.
    await db.pool.query(
      `INSERT INTO webhook_delivery_hours (account_id, hour, source_id, outcome, deliveries)
       VALUES ($1, date_trunc('hour', now() - interval '31 days'), $2, 'ok', 4),
              ($1, date_trunc('hour', now() - interval '29 days'), $2, 'ok', 2)
       ON CONFLICT DO NOTHING`,
      [source.accountId, source.sourceId],
    );
    const visible = await listDeliveries(source.accountId, source.sourceId, { limit: 100 });
    expect(visible.items).toHaveLength(3);

    // Two sweeps at once, as two instances would run them: neither fails, each old day goes once.
    const [a, b] = await Promise.all([
      sweepRetention({ batchSize: 2, pauseMs: 0 }),
      sweepRetention({ batchSize: 2, pauseMs: 0 }),
    ]);
    expect(a.logDaysDropped + b.logDaysDropped).toBeGreaterThanOrEqual(4);
    const left = await db.pool.query("SELECT received_at FROM webhook_deliveries WHERE source_id = $1", [
      source.sourceId,
    ]);
    expect(left.rows).toHaveLength(3);
    for (const row of left.rows) expect(Date.now() - row.received_at.getTime()).toBeLessThan(30 * 86_400_000);
    const oldest = await db.pool.query<{ day: string }>(
      `SELECT min(inhrelid::regclass::text) AS day FROM pg_inherits WHERE inhparent = 'webhook_deliveries'::regclass`,
    );
    expect(oldest.rows[0].day >= dayPartition("webhook_deliveries", Date.now() - 31 * 86_400_000)).toBe(true);
    const replays = await db.pool.query("SELECT signature FROM webhook_replays WHERE source_id = $1", [
      source.sourceId,
    ]);
    expect(replays.rows.map((row) => row.signature)).toEqual(["fresh"]);
    const rates = await db.pool.query("SELECT key FROM rate_limits WHERE key LIKE $1", [`test-%-${source.sourceId}`]);
    expect(rates.rows.map((row) => row.key)).toEqual([`test-live-${source.sourceId}`]);
    const hours = await db.pool.query<{ age: number }>(
      "SELECT extract(day FROM now() - hour)::int AS age FROM webhook_delivery_hours WHERE source_id = $1",
      [source.sourceId],
    );
    expect(hours.rows.map((row) => row.age)).not.toContain(31);
    expect(hours.rows.some((row) => row.age === 29)).toBe(true);
  });
});

const dayPartition = (table: string, at: number) =>
  `${table}_p${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}`;

async function seedDeliveries(source: TestSource, count: number) {
  // Pairs share a received_at, so the id tie-breaker is exercised.
  await db.pool.query(
    `INSERT INTO webhook_deliveries (account_id, source_id, received_at, status, action, event_title)
     SELECT $1, $2, now() - interval '1 hour' + (n / 2) * interval '1 second',
            CASE WHEN n % 5 = 0 THEN 401 WHEN n % 7 = 0 THEN 503 ELSE 200 END,
            CASE WHEN n % 3 = 0 THEN 'delete' ELSE 'upsert' END, 'Seed ' || n
     FROM generate_series(1, $3) AS n`,
    [source.accountId, source.sourceId, count],
  );
}

describe("listing deliveries", () => {
  it("pages newest first by cursor with no skips or repeats while new entries arrive, and back again", async () => {
    const source = await createSource();
    await seedDeliveries(source, 61);
    const expected = (
      await db.pool.query("SELECT id FROM webhook_deliveries WHERE source_id = $1 ORDER BY received_at DESC, id DESC", [
        source.sourceId,
      ])
    ).rows.map((row) => row.id);

    const seen: string[] = [];
    const cursors: (string | null)[] = [];
    let page = await listDeliveries(source.accountId, source.sourceId, { limit: 7 });
    expect(page.newerCursor).toBeNull();
    for (;;) {
      seen.push(...page.items.map((item) => item.id));
      cursors.push(page.newerCursor);
      // New requests arrive between page views.
      await send(source, upsert(sample({ title: `Arrived during paging ${seen.length}` })));
      if (!page.olderCursor) break;
      page = await listDeliveries(source.accountId, source.sourceId, {
        limit: 7,
        cursor: page.olderCursor,
        direction: "older",
      });
    }
    expect(seen).toEqual(expected);

    // Walking back with "newer" from the last page returns the same pages in reverse.
    let back = await listDeliveries(source.accountId, source.sourceId, {
      limit: 7,
      cursor: cursors[cursors.length - 1],
      direction: "newer",
    });
    const lastPageStart = Math.floor((expected.length - 1) / 7) * 7;
    expect(back.items.map((item) => item.id)).toEqual(expected.slice(lastPageStart - 7, lastPageStart));
    expect(back.olderCursor).not.toBeNull();
    while (back.newerCursor)
      back = await listDeliveries(source.accountId, source.sourceId, {
        limit: 7,
        cursor: back.newerCursor,
        direction: "newer",
      });
    // The newest page now also shows the entries that arrived meanwhile.
    expect(back.items[0].eventTitle).toMatch(/^Arrived during paging/);
  });

  it("filters by action and status class", async () => {
    const source = await createSource();
    await seedDeliveries(source, 30);
    const deletes = await listDeliveries(source.accountId, source.sourceId, { action: "delete", limit: 100 });
    expect(deletes.items.length).toBe(10);
    expect(deletes.items.every((item) => item.action === "delete")).toBe(true);
    const clientErrors = await listDeliveries(source.accountId, source.sourceId, { statusClass: "4xx", limit: 100 });
    expect(clientErrors.items.map((item) => item.status)).toEqual(Array(6).fill(401));
    const serverErrors = await listDeliveries(source.accountId, source.sourceId, {
      statusClass: "5xx",
      action: "upsert",
      limit: 100,
    });
    expect(serverErrors.items.every((item) => item.status === 503 && item.action === "upsert")).toBe(true);
    const ok = await listDeliveries(source.accountId, source.sourceId, { statusClass: "2xx", limit: 100 });
    expect(
      ok.items.length +
        clientErrors.items.length +
        (await listDeliveries(source.accountId, source.sourceId, { statusClass: "5xx", limit: 100 })).items.length,
    ).toBe(30);
  });

  it("accepts the public source id as well as the row id, and ignores a malformed cursor", async () => {
    const source = await createSource();
    await seedDeliveries(source, 3);
    const byPublicId = await listDeliveries(source.accountId, source.publicId, { cursor: "not-a-cursor" });
    expect(byPublicId.items).toHaveLength(3);
  });
});

describe("isolation between accounts", () => {
  it("never shows another account's deliveries", async () => {
    const owner = await createSource();
    const other = await createSource();
    await send(owner, upsert(sample()));
    const delivery = await lastDelivery(owner);
    expect((await listDeliveries(other.accountId, owner.sourceId)).items).toEqual([]);
    expect((await listDeliveries(other.accountId, owner.publicId)).items).toEqual([]);
    expect(await getDelivery(other.accountId, delivery!.id as string)).toBeNull();
    expect(await getDelivery(owner.accountId, delivery!.id as string)).toMatchObject({ id: delivery!.id, status: 200 });
    expect(await getDelivery(owner.accountId, "not-a-uuid")).toBeNull();
  });
});
