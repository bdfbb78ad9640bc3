import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";

/*
 * What the app relies on in graphile-worker's schema (docs/outbound-webhooks.md, "What touches
 * graphile-worker"): only its public view and functions, never its private tables. Should an upgrade of the
 * library rename or retype any of them, this fails before a worker does.
 */

const functionArguments = async (name: string): Promise<string[]> =>
  (
    await db.pool.query<{ args: string }>(
      `SELECT pg_get_function_identity_arguments(p.oid) AS args FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'graphile_worker' AND p.proname = $1`,
      [name],
    )
  ).rows.map((row) => row.args);

describe("graphile-worker's public schema", () => {
  it("has the jobs view with the columns the outbound worker and the soak read", async () => {
    const { rows } = await db.pool.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'graphile_worker' AND table_name = 'jobs' AND column_name IN ('id', 'task_identifier')
       ORDER BY column_name`,
    );
    expect(rows).toEqual([
      { column_name: "id", data_type: "bigint" },
      { column_name: "task_identifier", data_type: "text" },
    ]);
  });

  it("has complete_jobs(bigint[]), which removes the deliver jobs of before the outbound queue", async () => {
    expect(await functionArguments("complete_jobs")).toContain("job_ids bigint[]");
  });

  it("has add_job with the named arguments the calendar feeds queue their syncs with", async () => {
    const [signature] = await functionArguments("add_job");
    expect(signature).toMatch(/^identifier text, payload json, queue_name text, run_at timestamp with time zone, /);
    expect(signature).toContain("max_attempts integer");
    expect(signature).toContain("job_key text");
  });

  it("queues nothing for the outbound side: no deliver task has a job", async () => {
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'deliver'",
    );
    expect(rows[0].n).toBe(0);
  });
});
