import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withIdempotency, type IdempotencyOwner } from "@/lib/api/idempotency";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { db } from "@/lib/platform/db/client";
import { createKey } from "../../support/api-keys";
import { createAccount } from "../../support/factories";

/*
 * Idempotency-Key records are partitioned by UTC day (lib/api/idempotency.ts): these tests put claims on
 * both sides of a midnight, in two day partitions, and check that the key still holds across them.
 * Claims at chosen instants go through idempotency_claim() itself; tomorrow's midnight is used, whose two
 * days' partitions always exist (yesterday to a week ahead).
 */

let principal: IdempotencyOwner;
beforeAll(async () => {
  const owner = await createAccount("Midnight Client");
  const key = await createKey(owner, { scopes: ["write:leads"] });
  principal = { account: { id: owner.accountId }, key: { id: key.id } };
});

const unique = (label: string) => `${label}-${crypto.randomUUID()}`;
const post = (key: string) =>
  new Request("http://localhost/api/public/things", {
    method: "POST",
    headers: { "Idempotency-Key": key },
    body: '{"a":1}',
  });
const bytes = () => new TextEncoder().encode('{"a":1}');

const nextMidnight = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
};

type ClaimRow = { claimed: boolean; created_at: Date; partition?: string };
const CLAIM = `SELECT claimed, created_at
  FROM idempotency_claim($1, $2, $3, 'fingerprint', interval '24 hours', interval '60 seconds', $4)`;
// A statement of its own: the claim's row is written after the claiming statement's snapshot.
const PARTITION = `SELECT tableoid::regclass::text AS partition FROM idempotency_keys
  WHERE account_id = $1 AND api_key_id = $2 AND key = $3 AND created_at = $4`;

async function claimAt(client: Pick<pg.Pool, "query">, key: string, at: number): Promise<ClaimRow> {
  const owner = [principal.account.id, principal.key.id, key];
  const claim = (await client.query<ClaimRow>(CLAIM, [...owner, new Date(at).toISOString()])).rows[0];
  const { rows } = await client.query<{ partition: string }>(PARTITION, [...owner, claim.created_at]);
  return { ...claim, partition: rows[0]?.partition };
}

const dayPartition = (at: number) => `idempotency_keys_p${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}`;

describe("Idempotency-Key across UTC days", () => {
  const clients: pg.Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
  });

  it("replays an answer stored before midnight after it, from the previous day's partition", async () => {
    const key = unique("yesterday");
    let runs = 0;
    const handler = async () => jsonResponse({ run: ++runs }, { status: 201 });
    await withIdempotency(post(key), principal, bytes(), handler);
    // The answer as if stored in the last millisecond of yesterday (UTC): another day's partition.
    const { rows } = await db.pool.query<{ partition: string }>(
      `UPDATE idempotency_keys SET created_at = date_trunc('day', now(), 'UTC') - interval '1 millisecond'
        WHERE account_id = $1 AND api_key_id = $2 AND key = $3 RETURNING tableoid::regclass::text AS partition`,
      [principal.account.id, principal.key.id, key],
    );
    expect(rows[0].partition).toBe(dayPartition(Date.now() - 86_400_000));

    const again = await withIdempotency(post(key), principal, bytes(), handler);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual({ run: 1 });
    expect(runs).toBe(1);
  });

  it("finds a key claimed yesterday at 10:00 today at 09:00, and treats it as new after 24 hours", async () => {
    const key = unique("24h");
    const yesterday10 = nextMidnight() - 14 * 3_600_000;
    const first = await claimAt(db.pool, key, yesterday10);
    expect(first).toMatchObject({ claimed: true, partition: dayPartition(yesterday10) });
    // Answered (an unanswered claim a minute old counts as abandoned).
    await db.pool.query("UPDATE idempotency_keys SET status = 201, body = '{}' WHERE key = $1", [key]);

    const today09 = yesterday10 + 23 * 3_600_000;
    expect(await claimAt(db.pool, key, today09)).toMatchObject({ claimed: false });
    expect((await claimAt(db.pool, key, today09)).created_at.getTime()).toBe(yesterday10);

    const dayLater = yesterday10 + 24 * 3_600_000 + 1;
    expect(await claimAt(db.pool, key, dayLater)).toMatchObject({ claimed: true, partition: dayPartition(dayLater) });
  });

  it("lets one of two concurrent claims either side of midnight run: the later waits and sees the first", async () => {
    const key = unique("straddle");
    const midnight = nextMidnight();
    const [a, b] = await Promise.all([connect(), connect()]);
    await a.query("BEGIN");
    const before = await claimAt(a, key, midnight - 5);
    expect(before).toMatchObject({ claimed: true, partition: dayPartition(midnight - 5) });
    // b's claim is in the next day's partition; it waits for a's transaction instead of claiming beside it.
    let settled = false;
    const after = claimAt(b, key, midnight + 5).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    await a.query("COMMIT");
    expect(await after).toMatchObject({ claimed: false });
    expect((await after).created_at.getTime()).toBe(midnight - 5);
  });

  it("claims a key exactly once among 16 concurrent claims spread across midnight", async () => {
    const key = unique("burst");
    const midnight = nextMidnight();
    const claims = await Promise.all(
      Array.from({ length: 16 }, (_, index) => claimAt(db.pool, key, midnight + (index % 2 ? 1 : -1) * (index + 1))),
    );
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = $1 AND api_key_id = $2 AND key = $3",
      [principal.account.id, principal.key.id, key],
    );
    expect(rows[0].n).toBe(1);
  });

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL });
    await client.connect();
    clients.push(client);
    return client;
  }
});
