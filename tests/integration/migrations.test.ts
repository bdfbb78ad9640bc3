import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { applyMigrations, pendingSchemaChanges } from "@/lib/platform/db/migrate";

describe("migrations", () => {
  it("produce exactly the schema that schema.prisma describes", async () => {
    const drift = await pendingSchemaChanges(process.env.DATABASE_URL!);
    expect(drift, "run `npm run db:migration -- <name>` to capture the change").toBe("");
  });

  it("keep only the disposable rate limit counters out of the write-ahead log", async () => {
    const { rows } = await db.pool.query<{ relname: string }>(
      "SELECT relname FROM pg_class WHERE relkind = 'r' AND relpersistence = 'u' AND " +
        "relnamespace = 'public'::regnamespace ORDER BY relname",
    );
    expect(rows.map((row) => row.relname)).toEqual(["rate_limits"]);
  });

  it("give server-dependent functions their server's bodies again, as after a restore on another version", async () => {
    // What pg_dump restores when the dump came from a newer server: bodies this server may lack.
    await db.pool.query(
      "SET check_function_bodies = off; CREATE OR REPLACE FUNCTION outbound_row_id() RETURNS uuid " +
        "LANGUAGE sql AS 'SELECT uuid_from_the_future()'; RESET check_function_bodies",
    );
    await expect(db.pool.query("SELECT outbound_row_id()")).rejects.toThrow(/uuid_from_the_future/);
    await applyMigrations(process.env.DATABASE_URL!);
    const { rows } = await db.pool.query<{ id: string; version: number }>(
      "SELECT outbound_row_id()::text AS id, current_setting('server_version_num')::int AS version",
    );
    expect(rows[0].id).toMatch(rows[0].version >= 180000 ? /^[0-9a-f]{8}-[0-9a-f]{4}-7/ : /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it("check a delivery id in a queue job as the canonical 36 characters only", async () => {
    const id = "0b9e7c3a-61f2-4c8e-9d1a-5f3b2a7c4e10";
    const { rows } = await db.pool.query<{ value: string | null }>(
      "SELECT outbound_uuid_or_null(v)::text AS value FROM unnest($1::text[]) WITH ORDINALITY AS u(v, n) ORDER BY n",
      [
        [
          id,
          id.toUpperCase(),
          `{${id}}`,
          id.replace(/-/g, ""),
          "not-a-uuid",
          "",
          "'; DROP TABLE outbound_deliveries; --",
        ],
      ],
    );
    expect(rows.map((row) => row.value)).toEqual([id, id, null, null, null, null, null]);
  });
});
