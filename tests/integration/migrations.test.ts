import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { pendingSchemaChanges } from "@/lib/db/migrate";

describe("migrations", () => {
  it("produce exactly the schema that schema.prisma describes", async () => {
    const drift = await pendingSchemaChanges(process.env.DATABASE_URL!);
    expect(drift, "run `npm run db:migration -- <name>` to capture the change").toBe("");
  });

  it("keep only the disposable rate limit counters out of the write-ahead log", async () => {
    const { rows } = await db.pool.query<{ relname: string }>(
      "SELECT relname FROM pg_class WHERE relkind = 'r' AND relpersistence = 'u' AND relnamespace = 'public'::regnamespace ORDER BY relname",
    );
    expect(rows.map((row) => row.relname)).toEqual(["rate_limits"]);
  });
});
