import { db } from "@/lib/platform/db/client";
import { listDeliveries } from "@/lib/events-webhook/deliveries";
import { listEvents } from "@/lib/events/list";
import { readOverview } from "@/lib/overview/read";
import type { Seeded } from "./dashboard-seed";

type Captured = { text: string; values: unknown[] };

/**
 * Runs the lib functions the pages call with the pool's query captured, then EXPLAINs exactly those
 * statements, so the printed plans cannot drift from what the pages run.
 */
async function capture(run: () => Promise<unknown>): Promise<Captured[]> {
  const pool = db.pool;
  const original = pool.query.bind(pool);
  const captured: Captured[] = [];
  (pool as unknown as { query: (text: string, values?: unknown[]) => Promise<unknown> }).query = (
    text: string,
    values?: unknown[],
  ) => {
    captured.push({ text, values: values ?? [] });
    return original(text, values);
  };
  try {
    await run();
  } finally {
    (pool as unknown as { query: typeof original }).query = original;
  }
  return captured;
}

export async function explainDashboardQueries(seeded: Seeded): Promise<void> {
  const cases: Array<[string, () => Promise<unknown>]> = [
    ["Overview", () => readOverview(seeded.accountId)],
    ["Recent Deliveries, first page", () => listDeliveries(seeded.accountId, seeded.sourceId, {})],
    [
      "Recent Deliveries, 500 pages deep",
      () => listDeliveries(seeded.accountId, seeded.sourceId, { cursor: seeded.deepCursor, direction: "older" }),
    ],
    [
      "All Events, filtered search",
      () => listEvents(seeded.accountId, { query: "Workshop", status: "upcoming", when: "upcoming", limit: 50 }),
    ],
    ["All Events, rare-term search", () => listEvents(seeded.accountId, { query: "number 99999", limit: 50 })],
  ];
  for (const [name, run] of cases) {
    for (const statement of await capture(run)) {
      const plan = await db.pool.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
        statement.values,
      );
      console.log(`\n— ${name}\n${plan.rows.map((row) => `  ${row["QUERY PLAN"]}`).join("\n")}`);
    }
  }
  await db.pool.end();
}
