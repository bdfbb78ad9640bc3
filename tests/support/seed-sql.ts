import type pg from "pg";
import { DEFAULT_STAGES } from "@/lib/leads/pipeline";

/**
 * An account written straight to its tables, with the pipeline sign-up gives it: for the benchmarks'
 * seeds and the Zapier tests' setup, which run on a bare pg client outside the app.
 */
export async function insertAccount(client: pg.Client, name: string, plan = "free"): Promise<string> {
  const account = await client.query<{ id: string }>(
    `INSERT INTO accounts (name, plan) VALUES ($1, $2::"Plan") RETURNING id`,
    [name, plan],
  );
  const accountId = account.rows[0].id;
  for (const [position, stage] of DEFAULT_STAGES.entries()) {
    await client.query("INSERT INTO pipeline_stages (account_id, key, label, position) VALUES ($1, $2, $3, $4)", [
      accountId,
      stage.key,
      stage.label,
      position,
    ]);
  }
  return accountId;
}
