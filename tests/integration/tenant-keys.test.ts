import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/api-keys/authenticate";
import { findWidget, getOrCreateWidget } from "@/lib/conversations/widget";
import { findPublishedFeed } from "@/lib/events/calendar-feed";
import { db } from "@/lib/platform/db/client";
import { createKey } from "../support/api-keys";
import { createAccount } from "../support/factories";
import { createSource, sample, send, upsert } from "./events-webhook/support";

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
       WHERE con.contype = 'f' AND con.conparentid = 0 AND con.connamespace = 'public'::regnamespace
         AND NOT child.relispartition
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

/*
 * A public value is unique per account only: values found without an account (random and unguessable)
 * are indexed, and a value that somehow exists in two accounts reaches neither.
 */
describe("a lookup by a public value alone", () => {
  it("answers a webhook source id found in two accounts as unknown", async () => {
    const [ours, theirs] = [await createSource(), await createSource()];
    await db.pool.query("UPDATE webhook_sources SET public_id = $2 WHERE account_id = $1", [
      theirs.accountId,
      ours.publicId,
    ]);
    const answer = await send(ours, upsert(sample()));
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ ok: false, error: { code: "source_not_found" } });
    await db.pool.query("DELETE FROM webhook_sources WHERE account_id = $1", [theirs.accountId]);
    expect((await send(ours, upsert(sample()))).status).toBe(200);
  });

  it("answers an API key hash found in two accounts as unknown", async () => {
    const [ours, theirs] = [await createKey(await createAccount()), await createKey(await createAccount())];
    expect(await authenticateApiKey(db.pool, `Bearer ${ours.secret}`)).toMatchObject({ ok: true });
    await db.pool.query("UPDATE api_keys SET key_hash = (SELECT key_hash FROM api_keys WHERE id = $1) WHERE id = $2", [
      ours.id,
      theirs.id,
    ]);
    expect(await authenticateApiKey(db.pool, `Bearer ${ours.secret}`)).toMatchObject({ ok: false, code: "unknown" });
  });

  it("answers a calendar feed token hash found in two accounts as unknown", async () => {
    const [ours, theirs] = [await createAccount(), await createAccount()];
    const hash = `tenant-keys-${ours.accountId}`;
    const publish = (accountId: string) =>
      db.pool.query("INSERT INTO published_calendars (account_id, token_hash, token_sealed) VALUES ($1, $2, 'x')", [
        accountId,
        hash,
      ]);
    await publish(ours.accountId);
    expect(await findPublishedFeed(hash, "https://app.example")).toMatchObject({ accountId: ours.accountId });
    await publish(theirs.accountId);
    expect(await findPublishedFeed(hash, "https://app.example")).toBeNull();
  });

  it("answers a chat widget id found in two accounts as unknown", async () => {
    const [ours, theirs] = [await createAccount(), await createAccount()];
    const widget = await getOrCreateWidget(ours.accountId);
    await getOrCreateWidget(theirs.accountId);
    expect(await findWidget(widget.id)).toMatchObject({ id: widget.id });
    await db.pool.query("UPDATE chat_widgets SET id = $2 WHERE account_id = $1", [theirs.accountId, widget.id]);
    expect(await findWidget(widget.id)).toBeNull();
  });
});
