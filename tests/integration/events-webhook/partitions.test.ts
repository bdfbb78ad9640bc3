import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { deliveriesQuery, deliveryCursor, listDeliveries } from "@/lib/events-webhook/deliveries";
import { computeSignature } from "@/lib/events-webhook/signature";
import { ensurePartitionsFor } from "../../support/partitions";
import { createSource, nowSeconds, sample, send, upsert, type TestSource } from "./support";

/*
 * The delivery log and the replay records are partitioned by UTC day (migration
 * webhook_logs_daily_partitions). Recent Deliveries must read only the days its page can reach, and a
 * replay record must sit in the day of the request's signed time.
 */

const DAY = 86_400_000;
const partitionOf = (table: string, at: number) =>
  `${table}_p${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}`;

/** The day partitions a page's plan reads (partitions pruned at planning or at executor start-up are absent). */
async function scannedDays(query: { text: string; values: unknown[] }): Promise<string[]> {
  const { rows } = await db.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${query.text}`, query.values);
  const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
  return [...new Set(plan.match(/webhook_deliveries_p\d{8}/g) ?? [])].sort();
}

async function seed(source: TestSource, ages: number[]) {
  const instants = ages.map((days) => new Date(Date.now() - days * DAY));
  await ensurePartitionsFor("webhook_deliveries", instants);
  await db.pool.query(
    `INSERT INTO webhook_deliveries (account_id, source_id, received_at, status, action)
     SELECT $1, $2, t, 200, 'upsert' FROM unnest($3::timestamptz[]) AS t`,
    [source.accountId, source.sourceId, instants],
  );
}

describe("Recent Deliveries on the day partitions", () => {
  it("plans to read only the last 30 days, and from a cursor only the days up to the cursor's", async () => {
    const source = await createSource();
    await seed(source, [35, 20, 12, 10, 3, 0]);
    await ensurePartitionsFor("webhook_deliveries", [new Date(Date.now() - 38 * DAY)]);

    const first = await scannedDays(deliveriesQuery(source.accountId, source.sourceId)!.query);
    expect(first.length).toBeGreaterThan(0);
    expect(first[0] >= partitionOf("webhook_deliveries", Date.now() - 30 * DAY)).toBe(true);
    expect(first).not.toContain(partitionOf("webhook_deliveries", Date.now() - 35 * DAY));

    // A page after the delivery of 10 days ago reads that day and older ones within the 30 days, no newer day.
    const { rows } = await db.pool.query<{ received_at: Date; id: string }>(
      `SELECT received_at, id FROM webhook_deliveries WHERE source_id = $1 AND received_at < now() - interval '9 days'
       ORDER BY received_at DESC LIMIT 1`,
      [source.sourceId],
    );
    const cursor = deliveryCursor(rows[0]);
    const older = await scannedDays(deliveriesQuery(source.accountId, source.sourceId, { cursor })!.query);
    expect(older.at(-1)).toBe(partitionOf("webhook_deliveries", rows[0].received_at.getTime()));
    expect(older[0] >= partitionOf("webhook_deliveries", Date.now() - 30 * DAY)).toBe(true);
    const newer = await scannedDays(
      deliveriesQuery(source.accountId, source.sourceId, { cursor, direction: "newer" })!.query,
    );
    expect(newer[0]).toBe(partitionOf("webhook_deliveries", rows[0].received_at.getTime()));

    // The pages themselves are unchanged: newest first within 30 days, and the cursor continues after its row.
    const page = await listDeliveries(source.accountId, source.sourceId, { limit: 100 });
    expect(page.items).toHaveLength(5);
    const next = await listDeliveries(source.accountId, source.sourceId, { cursor, limit: 100 });
    expect(next.items).toHaveLength(2);
  });
});

describe("replay records by their signed time", () => {
  it("records an accepted request in the day of its timestamp, and answers its replay as a duplicate", async () => {
    const source = await createSource();
    const timestamp = String(nowSeconds() - 200);
    const body = upsert(sample({ title: "Signed earlier" }));
    expect((await send(source, body, { timestamp })).body).toMatchObject({ ok: true, action: "upsert" });
    const { rows } = await db.pool.query<{ signed_at: Date; partition: string }>(
      "SELECT signed_at, tableoid::regclass::text AS partition FROM webhook_replays WHERE source_id = $1",
      [source.sourceId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].signed_at.getTime()).toBe(Number(timestamp) * 1000);
    expect(rows[0].partition).toBe(partitionOf("webhook_replays", Number(timestamp) * 1000));
    expect((await send(source, body, { timestamp })).body).toMatchObject({ ok: true, duplicate: true });
  });

  it("finds a record whose time is only known within the window of the signed time", async () => {
    const source = await createSource();
    const timestamp = String(nowSeconds());
    const body = upsert(sample({ title: "Accepted before the partitioning" }));
    const signature = computeSignature(source.secret, timestamp, body).slice("sha256=".length);
    await db.pool.query(
      `INSERT INTO webhook_replays (account_id, source_id, signature, signed_at)
       VALUES ($1, $2, $3, to_timestamp($4) + interval '4 minutes')`,
      [source.accountId, source.sourceId, signature, Number(timestamp)],
    );
    expect((await send(source, body, { timestamp })).body).toMatchObject({ ok: true, duplicate: true });
  });
});
