import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db/client";
import { sendTestNotification } from "@/lib/outbound/manage";
import { revealSubscriptionSecret, rotateSubscriptionSecret } from "@/lib/webhook-subscriptions/store";
import type { TestAccount } from "../../support/factories";
import { accountWithWebhooksKey, api, storedIdempotencyAnswer, fakeResolverForTests } from "./client";

/*
 * Signing secrets are encrypted at rest everywhere (docs/outbound-webhooks.md, "Secrets"), including the
 * answers kept for Idempotency-Key replays. The last test scans every text-like column of the whole test
 * database: files share one database, and a `.last.test.ts` file runs after every other (vitest.config.ts),
 * so it also covers the rows that every subscription and outbound test of the run wrote.
 */

let owner: TestAccount;
let key: string;
fakeResolverForTests();
beforeAll(async () => ({ owner, key } = await accountWithWebhooksKey("Secrets At Rest")));

const subscribe = (body: object, idempotencyKey?: string) =>
  api.create(key, body, idempotencyKey ? { headers: { "Idempotency-Key": idempotencyKey } } : undefined);

const storedAnswer = async (idempotencyKey: string) =>
  (await storedIdempotencyAnswer(owner.accountId, idempotencyKey))[0];

describe("a subscribe under an Idempotency-Key", () => {
  it("is replayed with its secret, byte for byte, while the stored answer holds it only encrypted", async () => {
    const body = { target_url: "https://zapier.example.test/hooks/standard/1/at-rest", event: "lead.created" };
    const first = await subscribe(body, "zap-subscribe-1");
    expect(first.status).toBe(201);
    const text = await first.text();
    const { secret } = JSON.parse(text) as { secret: string };
    expect(secret).toMatch(/^whsec_/);

    const stored = await storedAnswer("zap-subscribe-1");
    expect(stored.sealed).toBe(true);
    expect(stored.body).not.toContain("whsec_");
    expect(stored.body).not.toContain(secret.slice(6));

    // Zapier retries a subscribe that timed out: the retry gets the same subscription and secret.
    const replay = await subscribe(body, "zap-subscribe-1");
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await replay.text()).toBe(text);
  });

  it("replays a refusal of the subscribe path as first answered, sealed like every answer of that path", async () => {
    const body = { url: "https://intranet.example.test/", event_types: ["*"] };
    const refused = await subscribe(body, "zap-subscribe-refused");
    expect(refused.status).toBe(400);
    const replay = await subscribe(body, "zap-subscribe-refused");
    expect(replay.status).toBe(400);
    expect(await replay.text()).toBe(await refused.text());
    expect((await storedAnswer("zap-subscribe-refused")).sealed).toBe(true);
  });
});

type Column = { table_schema: string; table_name: string; column_name: string; data_type: string };

/** Every column that can hold text, of every table (public and the job queue's), and which hold any of `needles`. */
async function columnsHolding(needles: string[]): Promise<{ scanned: number; holding: string[] }> {
  const { rows: columns } = await db.pool.query<Column>(
    `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE t.table_type = 'BASE TABLE' AND c.table_schema IN ('public', 'graphile_worker')
        AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea')
             OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar', '_json', '_jsonb')))`,
  );
  // LIKE patterns: the needles are base64 and "whsec_", so only "_" needs escaping.
  const patterns = needles.map((needle) => `%${needle.replace(/_/g, "\\_")}%`);
  const holding: string[] = [];
  for (const column of columns) {
    const table = `"${column.table_schema}"."${column.table_name}"`;
    const value = `"${column.column_name}"`;
    const text = column.data_type === "bytea" ? `encode(${value}, 'escape')` : `${value}::text`;
    const sql = `SELECT 1 FROM ${table} WHERE ${text} LIKE ANY($1::text[]) LIMIT 1`;
    const { rows } = await db.pool.query(sql, [patterns]);
    if (rows.length > 0) holding.push(`${column.table_schema}.${column.table_name}.${column.column_name}`);
  }
  return { scanned: columns.length, holding };
}

describe("the database", () => {
  it("holds no signing secret in plain text in any column of any table", async () => {
    const created: { id: string; secret: string }[] = [];
    for (const [index, idempotencyKey] of [undefined, "scan-1", "scan-2"].entries()) {
      const body = { url: `https://hooks.example.test/scan/${index}`, event_types: ["*"] };
      const response = await subscribe(body, idempotencyKey);
      expect(response.status).toBe(201);
      created.push(await response.json());
    }
    const context = { accountId: owner.accountId, actor: { type: "user" as const, user: owner.user } };
    const rotated = await rotateSubscriptionSecret(context, created[1].id);
    if (!rotated.ok) throw new Error("rotation failed");
    expect((await revealSubscriptionSecret(context, created[1].id)).ok).toBe(true);
    expect(await sendTestNotification(owner.accountId, created[2].id)).not.toBeNull();
    // Deleted subscriptions leave their stored answers (and the secrets in them) behind for 24 hours.
    expect((await api.delete(key, created[2].id)).status).toBe(204);

    // The prefix, and each secret's random part on its own (in case something stored it without the prefix).
    const secrets = [...created.map((item) => item.secret), rotated.secret].map((secret) => secret.slice(6));
    const { scanned, holding } = await columnsHolding(["whsec_", ...secrets]);
    expect(scanned).toBeGreaterThan(50);
    expect(holding).toEqual([]);
  });
});
