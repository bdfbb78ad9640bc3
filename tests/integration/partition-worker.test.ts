import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import type { JobRunner } from "@/lib/platform/db/job-runner";
import { startBackgroundJobs } from "@/lib/server/background-jobs";
import { PARTITIONED_LOGS } from "@/lib/retention/partitioned-logs";

/*
 * The partitioned logs' coming days (lib/retention/partition-worker.ts): the process's background jobs create
 * the missing ones when they start, before the hourly cron item first fires.
 */

const DAY = 86_400_000;
const nameOf = (table: string, at: number) =>
  `${table}_p${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}`;

let worker: JobRunner | null = null;
afterAll(() => worker?.stop());

describe("the log partition job", () => {
  it("creates every registered log's days up to a week ahead when the worker starts", async () => {
    const weekAhead = Date.now() + 7 * DAY;
    for (const { table } of PARTITIONED_LOGS) await db.pool.query(`DROP TABLE IF EXISTS ${nameOf(table, weekAhead)}`);

    worker = await startBackgroundJobs({
      connectionString: process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL,
    });

    const { rows } = await db.pool.query<{ name: string }>(
      "SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NOT NULL",
      [PARTITIONED_LOGS.map(({ table }) => nameOf(table, weekAhead))],
    );
    expect(rows.map((row) => row.name).sort()).toEqual(
      PARTITIONED_LOGS.map(({ table }) => nameOf(table, weekAhead)).sort(),
    );
  });
});
