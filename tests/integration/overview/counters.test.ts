import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { attemptRecorder, type AttemptRecord } from "@/lib/outbound/record";
import { cancel, createSource, send, upsert, sample } from "../events-webhook/support";
import { deliveries, notify, subscribedAccount } from "../outbound/support";

/* The Overview's hourly counters hold exactly what the delivery logs hold, kept by the writers' own statements. */

async function deliveryCounters(sourceId: string) {
  const { rows } = await db.pool.query(
    `SELECT account_id, hour, outcome, deliveries AS n FROM webhook_delivery_hours
     WHERE source_id = $1 ORDER BY hour, outcome`,
    [sourceId],
  );
  return rows;
}

async function deliveryLogCounts(sourceId: string) {
  const { rows } = await db.pool.query(
    `SELECT account_id, date_trunc('hour', received_at, 'UTC') AS hour, COALESCE(error_code, 'ok') AS outcome,
       count(*)::int AS n
     FROM webhook_deliveries WHERE source_id = $1 GROUP BY 1, 2, 3 ORDER BY hour, outcome`,
    [sourceId],
  );
  return rows;
}

describe("hourly delivery counters", () => {
  it("count every webhook delivery the log holds, by outcome, refusals before and after the signature", async () => {
    const source = await createSource({ name: "Counted" });
    expect((await send(source, upsert(sample()))).status).toBe(200);
    expect((await send(source, upsert(sample({ title: "Second" })))).status).toBe(200);
    // An exact replay (same timestamp and signature) is a duplicate; the first of a second is logged.
    const timestamp = String(Math.floor(Date.now() / 1000) - 5);
    const body = upsert(sample({ title: "Replayed" }));
    expect((await send(source, body, { timestamp })).status).toBe(200);
    expect((await send(source, body, { timestamp })).body).toMatchObject({ duplicate: true });
    expect((await send(source, cancel(sample({ title: "Nothing like it" })))).status).toBe(404);
    expect((await send(source, JSON.stringify({ action: "upsert", event: {} }))).status).toBe(400);
    expect((await send(source, upsert(sample()), { signature: "sha256=" + "0".repeat(64) })).status).toBe(401);

    const counters = await deliveryCounters(source.sourceId);
    expect(counters).toEqual(await deliveryLogCounts(source.sourceId));
    const byOutcome = Object.fromEntries(counters.map((row) => [row.outcome, row.n]));
    expect(byOutcome).toMatchObject({ ok: 3, duplicate: 1, event_not_found: 1 });
    expect(counters.every((row) => row.account_id === source.accountId)).toBe(true);
    // The bad signature shares the one-per-second refusal log with the replay: it may go unlogged, then uncounted.
    expect(counters.reduce((sum, row) => sum + row.n, 0)).toBeGreaterThanOrEqual(6);
  });

  it("are removed with their source", async () => {
    const source = await createSource({ name: "Removed" });
    await send(source, upsert(sample()));
    expect(await deliveryCounters(source.sourceId)).toHaveLength(1);
    await db.pool.query("DELETE FROM webhook_sources WHERE id = $1", [source.sourceId]);
    expect(await deliveryCounters(source.sourceId)).toEqual([]);
  });
});

describe("hourly attempt counters", () => {
  it("count every recorded outbound attempt by subscription and outcome, batched ones too", async () => {
    const { accountId, subscriptionId } = await subscribedAccount();
    for (let n = 0; n < 4; n++) await notify(accountId, "lead.created", { id: `lead_${n}` });
    const rows = await deliveries(subscriptionId);
    expect(rows).toHaveLength(4);
    const record = attemptRecorder(db.pool);
    const attempt = (delivery: (typeof rows)[number], outcome: AttemptRecord["outcome"], n = 1): AttemptRecord => ({
      deliveryId: delivery.id,
      deliveryCreatedAt: delivery.created_at,
      attempt: n,
      statusCode: outcome === "succeeded" ? 204 : 500,
      durationMs: 12,
      excerpt: "",
      error: outcome === "succeeded" ? null : "The receiver answered 500.",
      outcome,
      delayMs: outcome === "retry" ? 60_000 : null,
      pauseMs: outcome === "retry" || outcome === "failed" ? 60_000 : null,
      accountId,
      subscriptionId,
      summary: "The receiver answered 500.",
    });
    // Recorded together: the recorder batches what arrives while a statement runs.
    await Promise.all([
      record(attempt(rows[0], "succeeded")),
      record(attempt(rows[1], "retry")),
      record(attempt(rows[2], "retry")),
      record(attempt(rows[3], "failed")),
    ]);
    await record(attempt(rows[1], "succeeded", 2));

    const { rows: counters } = await db.pool.query(
      `SELECT account_id, hour, outcome, attempts AS n FROM outbound_attempt_hours
       WHERE subscription_id = $1 ORDER BY hour, outcome`,
      [subscriptionId],
    );
    const { rows: logged } = await db.pool.query(
      `SELECT $2::uuid AS account_id, date_trunc('hour', attempted_at, 'UTC') AS hour, outcome, count(*)::int AS n
       FROM outbound_attempts WHERE subscription_id = $1 GROUP BY 2, 3 ORDER BY hour, outcome`,
      [subscriptionId, accountId],
    );
    expect(counters).toEqual(logged);
    expect(Object.fromEntries(counters.map((row) => [row.outcome, row.n]))).toEqual({
      succeeded: 2,
      retry: 2,
      failed: 1,
    });
  });
});
