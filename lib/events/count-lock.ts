import "server-only";
import type pg from "pg";
import type { PlanName } from "@/lib/accounts/plans";

/*
 * The bulk writers of events (the CSV import, a calendar feed's sync) work batch by batch, each batch in
 * its own transaction that first locks the account row as every writer of the event count locks it
 * (FOR NO KEY UPDATE, lib/accounts/plan-limit.ts): the plan and the count it reads then hold until COMMIT.
 */

type Queryable = Pick<pg.PoolClient, "query">;

/** BEGIN, the account row locked, `work` with the plan and the event count, COMMIT (ROLLBACK on a throw). */
export async function withEventCountLocked<T>(
  client: Queryable,
  accountId: string,
  work: (plan: PlanName, count: number) => Promise<T>,
): Promise<T> {
  await client.query("BEGIN");
  try {
    const account = await client.query<{ plan: PlanName; event_count: number }>(
      "SELECT plan::text AS plan, event_count FROM accounts WHERE id = $1::uuid FOR NO KEY UPDATE",
      [accountId],
    );
    if (!account.rows[0]) throw new Error("account not found");
    const result = await work(account.rows[0].plan, account.rows[0].event_count);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
