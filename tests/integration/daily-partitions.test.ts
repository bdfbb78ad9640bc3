import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { dropExpiredPartitions, ensureDailyPartitions } from "@/lib/platform/db/partitions";

const TABLE = "partition_probe_log";
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000);

async function partitions(): Promise<string[]> {
  const { rows } = await db.pool.query<{ name: string }>(
    "SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = $1::regclass ORDER BY 1",
    [TABLE],
  );
  return rows.map((row) => row.name);
}

describe("daily partitions", () => {
  afterAll(() => db.pool.query(`DROP TABLE IF EXISTS ${TABLE}`));

  it("creates one partition per UTC day ahead, drops whole days past retention, and keeps the rest", async () => {
    await db.pool.query(
      `CREATE TABLE ${TABLE} (id bigint, at timestamptz NOT NULL, PRIMARY KEY (id, at)) PARTITION BY RANGE (at)`,
    );
    expect(await ensureDailyPartitions(db.pool, [TABLE], { from: day(-3), to: day(2) })).toBe(6);
    expect(await ensureDailyPartitions(db.pool, [TABLE], { from: day(-3), to: day(2) })).toBe(0);
    expect(await partitions()).toHaveLength(6);

    await db.pool.query(`INSERT INTO ${TABLE} SELECT g, now() - g * interval '1 hour' FROM generate_series(0, 70) g`);
    // A session in another zone still writes UTC day bounds.
    await db.pool.query("SET TimeZone = 'Pacific/Kiritimati'");
    await ensureDailyPartitions(db.pool, [TABLE], { from: day(3), to: day(3) });
    await db.pool.query("RESET TimeZone");

    const dropped = await dropExpiredPartitions(db.pool, [{ table: TABLE, retentionHours: 24 }]);
    // Partitions ending at or before now() - 24 h: today-3 and today-2 always; never today-1 (ends at midnight).
    expect(dropped.map((entry) => entry.partition)).toEqual(
      [day(-3), day(-2)].map((d) => `${TABLE}_p${d.toISOString().slice(0, 10).replaceAll("-", "")}`),
    );
    const { rows } = await db.pool.query<{ oldest: Date }>(`SELECT min(at) AS oldest FROM ${TABLE}`);
    expect(rows[0].oldest.getTime()).toBeGreaterThanOrEqual(Date.UTC(...utcParts(day(-1))));
    const left = await partitions();
    expect(left).toHaveLength(5);
    expect(left.at(-1)).toBe(`${TABLE}_p${day(3).toISOString().slice(0, 10).replaceAll("-", "")}`);
  });
  it("gives a new day the storage parameters of its newest sibling, as the deliveries' fillfactor", async () => {
    const { rows } = await db.pool.query<{ options: string[] | null }>(
      `SELECT c.reloptions AS options FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'outbound_deliveries'::regclass ORDER BY c.relname DESC LIMIT 1`,
    );
    expect(rows[0].options).toEqual(["fillfactor=50"]);
    await db.pool.query(`CREATE TABLE ${TABLE}_tuned (at timestamptz NOT NULL) PARTITION BY RANGE (at)`);
    try {
      await ensureDailyPartitions(db.pool, [`${TABLE}_tuned`], { from: day(0), to: day(0) });
      const today = `${TABLE}_tuned_p${day(0).toISOString().slice(0, 10).replaceAll("-", "")}`;
      await db.pool.query(`ALTER TABLE ${today} SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01)`);
      await ensureDailyPartitions(db.pool, [`${TABLE}_tuned`], { from: day(1), to: day(2) });
      const created = await db.pool.query<{ options: string[] }>(
        `SELECT c.reloptions AS options FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
        [`${TABLE}_tuned`],
      );
      expect(created.rows.map((row) => row.options)).toEqual(
        Array(3).fill(["fillfactor=70", "autovacuum_vacuum_scale_factor=0.01"]),
      );
    } finally {
      await db.pool.query(`DROP TABLE ${TABLE}_tuned`);
    }
  });
});

function utcParts(date: Date): [number, number, number] {
  return [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
}
