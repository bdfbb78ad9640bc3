import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { identityMatch, type EventParams } from "@/lib/events/sql";
import { placeholders, statement } from "@/lib/platform/db/sql";

/*
 * The webhook's statements are prepared once per connection, and PostgreSQL may keep a generic plan made
 * while the account (or the whole table) was still empty. With account_id leading an index, such a plan
 * can pick it for matching the account alone and then walk all of the account's events on each upsert (docs/scaling.md, "Generic plans on an empty table"). A copy of events with its indexes and
 * no rows shows what such a plan reads.
 */
type Identity = Pick<EventParams, "account" | "title" | "starts_at" | "location">;
const p = placeholders<Identity>();

async function genericIdentityPlan(condition = identityMatch()): Promise<string> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("CREATE TEMP TABLE identity_probe (LIKE events INCLUDING INDEXES) ON COMMIT DROP");
    await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
    const lookup = statement<Identity>(`SELECT 1 FROM identity_probe s WHERE ${condition}`);
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

  it("looks for a series the upsert may name an occurrence of by title and location, not the account", async () => {
    // UPSERT_SQL's `hold`: the series of the same title and location that started earlier.
    const plan = await genericIdentityPlan(
      `s.account_id = ${p.account}::uuid AND s.title = ${p.title}::text AND s.location = ${p.location}::text
        AND s.recurring <> '' AND s.starts_at < ${p.starts_at}::timestamptz`,
    );
    const conditions = plan.split("\n").filter((line) => line.includes("Index Cond"));
    expect(conditions).toHaveLength(1);
    expect(conditions[0]).toMatch(/title.*location|location.*title/);
    // The index of series only (events_series_title_idx, copied under its columns' name).
    expect(plan).toMatch(/Index Scan using \w*account_id_title_location_idx/);
  });
});
