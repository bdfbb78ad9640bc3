import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { identityMatch, type EventParams } from "@/lib/events/sql";
import { statement } from "@/lib/platform/db/sql";

/*
 * The webhook's statements are prepared once per connection, and PostgreSQL may keep a generic plan made
 * while the account (or the whole table) was still empty. With account_id leading an index, such a plan
 * can pick it for matching the account alone and then walk all of the account's events on each upsert (docs/scaling.md, "Generic plans on an empty table"). A copy of events with its indexes and
 * no rows shows what such a plan reads.
 */
async function genericIdentityPlan(): Promise<string> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("CREATE TEMP TABLE identity_probe (LIKE events INCLUDING INDEXES) ON COMMIT DROP");
    await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
    const lookup = statement<Pick<EventParams, "account" | "title" | "starts_at" | "location">>(
      `SELECT 1 FROM identity_probe WHERE ${identityMatch()}`,
    );
    await client.query(`PREPARE identity_probe_lookup AS ${lookup.text}`);
    const values = lookup.values({
      account: "00000000-0000-0000-0000-000000000000",
      title: "Yoga",
      starts_at: new Date().toISOString(),
      location: "Hall",
    });
    // EXECUTE takes no bind parameters: the values go in as literals.
    const literals = values.map((value) => client.escapeLiteral(String(value))).join(", ");
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      `EXPLAIN EXECUTE identity_probe_lookup (${literals})`,
    );
    await client.query("DEALLOCATE identity_probe_lookup");
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

describe("the webhook's identity lookup", () => {
  it("is planned on an index that narrows to the event's start, even generically on an empty table", async () => {
    const plan = await genericIdentityPlan();
    const conditions = plan.split("\n").filter((line) => line.includes("Index Cond"));
    expect(conditions.length).toBeGreaterThan(0);
    for (const condition of conditions) expect(condition).toMatch(/starts_at|title/);
  });
});
