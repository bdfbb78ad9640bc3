import { describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";

/*
 * Tenant data is ready to be distributed by account_id (docs/scaling.md, "Citus (on paper)"): every table
 * in public carries account_id, and its primary key and every unique index include it. Partitioned tables
 * are judged by their parent (relkind 'p'); their partitions only repeat the parent's keys. The job
 * queue's tables live in the graphile_worker schema, outside public: not tenant data (its jobs carry the
 * account id in their payload), and they stay on one node.
 */
const GLOBAL_TABLES: Record<string, string> = {
  accounts: "the tenant itself: its id is the account_id of every tenant row",
  users: "a person may belong to several accounts; sign-in finds the user by e-mail before any account",
  rate_limits: "unlogged counters keyed by IP, key or source, across accounts",
  _prisma_migrations: "the migration history, not product data",
};

type Problem = { table: string; problem: string };

async function tenantKeyProblems(): Promise<Problem[]> {
  const { rows } = await db.pool.query<Problem>(
    `WITH tables AS (
       SELECT c.oid, c.relname FROM pg_class c
       WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
         AND c.relname <> ALL ($1::text[])),
     account_column AS (
       SELECT t.oid, a.attnum FROM tables t
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attname = 'account_id' AND NOT a.attisdropped)
     SELECT t.relname AS table, 'no account_id column' AS problem FROM tables t
     WHERE NOT EXISTS (SELECT 1 FROM account_column ac WHERE ac.oid = t.oid)
     UNION ALL
     SELECT t.relname, 'no primary key' FROM tables t
     WHERE NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = t.oid AND i.indisprimary)
     UNION ALL
     SELECT t.relname, CASE WHEN i.indisprimary THEN 'primary key ' ELSE 'unique index ' END
       || i.indexrelid::regclass::text || ' lacks account_id'
     FROM tables t JOIN pg_index i ON i.indrelid = t.oid AND i.indisunique
     WHERE NOT EXISTS (SELECT 1 FROM account_column ac WHERE ac.oid = t.oid AND ac.attnum = ANY (i.indkey))
     ORDER BY 1, 2`,
    [Object.keys(GLOBAL_TABLES)],
  );
  return rows;
}

describe("tenant tables", () => {
  it("carry account_id in their primary key and every unique index", async () => {
    expect(await tenantKeyProblems()).toEqual([]);
  });

  it("are told apart from the global tables, which all exist", async () => {
    const { rows } = await db.pool.query<{ relname: string }>(
      "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relname = ANY ($1::text[])",
      [Object.keys(GLOBAL_TABLES)],
    );
    expect(rows.map((row) => row.relname).sort()).toEqual(Object.keys(GLOBAL_TABLES).sort());
  });

  it("link to each other through keys that include account_id", async () => {
    const { rows } = await db.pool.query<{ constraint: string }>(
      `SELECT con.conname AS constraint FROM pg_constraint con
       JOIN pg_class child ON child.oid = con.conrelid
       JOIN pg_class parent ON parent.oid = con.confrelid
       WHERE con.contype = 'f' AND con.conparentid = 0 AND con.connamespace = 'public'::regnamespace AND NOT child.relispartition
         AND parent.relname <> ALL ($1::text[])
         AND NOT EXISTS (
           SELECT 1 FROM pg_attribute a
           WHERE a.attrelid = con.conrelid AND a.attname = 'account_id' AND a.attnum = ANY (con.conkey))
       ORDER BY 1`,
      [Object.keys(GLOBAL_TABLES)],
    );
    expect(rows.map((row) => row.constraint)).toEqual([]);
  });
});
