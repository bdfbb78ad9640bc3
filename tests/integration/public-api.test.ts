import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as me } from "@/app/api/public/zapier/me/route";
import { authenticateApiKey } from "@/lib/api-keys/authenticate";
import { generateApiKey } from "@/lib/api-keys/key-format";
import { revokeApiKey } from "@/lib/api-keys/keys";
import { notFoundResponse, withApiKey } from "@/lib/api/with-api-key";
import { db } from "@/lib/platform/db/client";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { bearer, createKey, setExpiry } from "../support/api-keys";
import { createAccount, type TestAccount } from "../support/factories";

const URL_ME = "http://localhost/api/public/zapier/me";
const callMe = (headers: Record<string, string> = {}) =>
  me(new Request(URL_ME, { headers }), { params: Promise.resolve({}) });

/** A small scoped route for the tests: one key's metadata, by id, within the caller's account. */
const readKeyRoute = withApiKey<{ id: string }>(
  async (_request, { account, params }) => {
    const { id } = await params;
    const { rows } = await db.pool.query("SELECT id, name FROM api_keys WHERE id::text = $1 AND account_id = $2", [
      id,
      account.id,
    ]);
    return rows[0] ? jsonResponse(rows[0]) : notFoundResponse("key");
  },
  { scope: "read:leads" },
);
const callReadKey = (id: string, headers: Record<string, string>) =>
  readKeyRoute(new Request(`http://localhost/api/public/test/keys/${id}`, { headers }), {
    params: Promise.resolve({ id }),
  });

async function expectUnauthorized(response: Response, challenge: string, code = "invalid_token") {
  expect(response.status).toBe(401);
  expect(response.headers.get("WWW-Authenticate")).toBe(challenge);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const body = await response.json();
  expect(body).toEqual({ ok: false, error: { code, message: expect.any(String), details: [] } });
  return body;
}
const INVALID = 'Bearer realm="api", error="invalid_token"';

let owner: TestAccount;
beforeAll(async () => {
  owner = await createAccount("Acme Travel");
});

describe("GET /api/public/zapier/me", () => {
  it("answers 200 with the account and the key, and no-store", async () => {
    const key = await createKey(owner, {
      name: "Zapier",
      scopes: ["webhooks", "read:leads"],
      expiresAt: new Date("2099-01-01T00:00:00Z"),
    });
    const response = await callMe(bearer(key.secret));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const row = await db.prisma.apiKey.findFirstOrThrow({ where: { id: key.id } });
    expect(await response.json()).toEqual({
      account: { id: owner.accountId, name: "Acme Travel" },
      key: {
        id: key.id,
        name: "Zapier",
        prefix: key.secret.slice(0, 12),
        scopes: ["read:leads", "webhooks"],
        expires_at: "2099-01-01T00:00:00.000Z",
        created_at: row.createdAt.toISOString(),
      },
    });
  });

  it("401 without a challenge error when there is no Authorization header", async () => {
    await expectUnauthorized(await callMe(), 'Bearer realm="api"', "unauthorized");
  });

  it.each([
    ["Bearer with nothing", "Bearer"],
    ["Bearer with spaces", "Bearer   "],
    ["Basic scheme", `Basic ${Buffer.from("user:pass").toString("base64")}`],
    ["Token scheme", `Token ${generateApiKey()}`],
    ["a bare key without scheme", generateApiKey()],
    ["a key with a bad checksum", `Bearer ${generateApiKey().slice(0, -2)}00`],
    ["a key of another product", "Bearer sk_live_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["a well-formed unknown key", `Bearer ${generateApiKey()}`],
  ])("401 invalid_token for %s", async (_label, header) => {
    await expectUnauthorized(await callMe({ Authorization: header }), INVALID);
  });

  it("rejects malformed keys without querying the database", async () => {
    const query = vi.spyOn(db.pool, "query");
    try {
      await expectUnauthorized(await callMe(bearer(generateApiKey().slice(0, -1) + "!")), INVALID);
      await expectUnauthorized(await callMe({ Authorization: "Bearer" }), INVALID);
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });

  it("401 for a revoked key, from the very next request", async () => {
    const key = await createKey(owner);
    expect((await callMe(bearer(key.secret))).status).toBe(200);
    await revokeApiKey({ accountId: owner.accountId, user: owner.user }, key.id);
    const body = await expectUnauthorized(await callMe(bearer(key.secret)), INVALID);
    expect(body.error.message).toBe("The API key has been revoked.");
  });

  it("401 for a key one second past its expiry, and 200 one second before", async () => {
    const key = await createKey(owner);
    await setExpiry(key.id, 1);
    expect((await callMe(bearer(key.secret))).status).toBe(200);
    await setExpiry(key.id, -1);
    const body = await expectUnauthorized(await callMe(bearer(key.secret)), INVALID);
    expect(body.error.message).toBe("The API key has expired.");
  });

  it("503 with Retry-After when the database cannot be reached", async () => {
    const key = await createKey(owner);
    const dead = new pg.Pool({
      connectionString: "postgresql://postgres:postgres@127.0.0.1:9/app",
      connectionTimeoutMillis: 500,
    });
    const pool = vi.spyOn(db, "pool", "get").mockReturnValue(dead);
    try {
      const response = await callMe(bearer(key.secret));
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toBe("5");
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect((await response.json()).error.code).toBe("unavailable");
    } finally {
      pool.mockRestore();
      await dead.end();
    }
  });
});

describe("scopes and tenancy", () => {
  it("403 insufficient_scope, naming the scope, for a valid key without it", async () => {
    const key = await createKey(owner, { scopes: ["webhooks", "write:leads"] });
    const response = await callReadKey(key.id, bearer(key.secret));
    expect(response.status).toBe(403);
    expect(response.headers.get("WWW-Authenticate")).toBe('Bearer error="insufficient_scope", scope="read:leads"');
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = await response.json();
    expect(body.error.code).toBe("insufficient_scope");
    expect(body.error.message).toContain("read:leads");
    expect(body.error.details).toEqual([{ scope: "read:leads", message: expect.any(String) }]);
  });

  it("passes the account and key to the handler when the scope is present", async () => {
    const key = await createKey(owner, { scopes: ["read:leads"] });
    const response = await callReadKey(key.id, bearer(key.secret));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.json()).toEqual({ id: key.id, name: "Zapier" });
  });

  it("answers another account's key exactly as for a resource that does not exist", async () => {
    const other = await createAccount("Other Co");
    const mine = await createKey(owner, { scopes: ["read:leads"] });
    const theirs = await createKey(other, { scopes: ["read:leads"] });
    const existing = await callReadKey(mine.id, bearer(theirs.secret));
    const missing = await callReadKey(crypto.randomUUID(), bearer(theirs.secret));
    expect(existing.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await existing.text()).toBe(await missing.text());
  });
});

describe("every instance sees revocation and expiry on the next request", () => {
  let second: pg.Pool;
  beforeAll(() => {
    second = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  });
  afterAll(() => second.end());

  it("revocation", async () => {
    const key = await createKey(owner);
    // Both instances have served the key (connections open, statements prepared) before it is revoked.
    expect((await callMe(bearer(key.secret))).status).toBe(200);
    expect((await authenticateApiKey(second, `Bearer ${key.secret}`)).ok).toBe(true);
    await revokeApiKey({ accountId: owner.accountId, user: owner.user }, key.id);
    expect((await callMe(bearer(key.secret))).status).toBe(401);
    expect(await authenticateApiKey(second, `Bearer ${key.secret}`)).toMatchObject({ ok: false, code: "revoked" });
  });

  it("expiry", async () => {
    const key = await createKey(owner);
    expect((await authenticateApiKey(second, `Bearer ${key.secret}`)).ok).toBe(true);
    await setExpiry(key.id, -1);
    expect((await callMe(bearer(key.secret))).status).toBe(401);
    expect(await authenticateApiKey(second, `Bearer ${key.secret}`)).toMatchObject({ ok: false, code: "expired" });
  });
});

describe("last used", () => {
  const lastUsed = async (id: string) => (await db.prisma.apiKey.findFirstOrThrow({ where: { id } })).lastUsedAt;

  it("is written on first use, then at most once a minute", async () => {
    const key = await createKey(owner);
    expect(await lastUsed(key.id)).toBeNull();
    await callMe(bearer(key.secret));
    const first = await lastUsed(key.id);
    expect(first).toBeInstanceOf(Date);
    await callMe(bearer(key.secret));
    expect(await lastUsed(key.id)).toEqual(first);
    await db.pool.query("UPDATE api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = $1", [key.id]);
    const stale = await lastUsed(key.id);
    await callMe(bearer(key.secret));
    expect((await lastUsed(key.id))!.getTime()).toBeGreaterThan(stale!.getTime());
  });

  it("writes once when many requests race", async () => {
    const key = await createKey(owner);
    // A throw-away trigger counts the writes to last_used_at.
    await db.pool.query(`
      CREATE TABLE test_last_used_writes (key_id uuid);
      CREATE FUNCTION test_count_last_used() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN INSERT INTO test_last_used_writes VALUES (NEW.id); RETURN NEW; END $$;
      CREATE TRIGGER test_count_last_used AFTER UPDATE OF last_used_at ON api_keys
        FOR EACH ROW EXECUTE FUNCTION test_count_last_used();`);
    try {
      const responses = await Promise.all(Array.from({ length: 30 }, () => callMe(bearer(key.secret))));
      expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200));
      const { rows } = await db.pool.query(
        "SELECT count(*)::int AS writes FROM test_last_used_writes WHERE key_id = $1",
        [key.id],
      );
      expect(rows[0].writes).toBe(1);
    } finally {
      await db.pool.query(`
        DROP TRIGGER test_count_last_used ON api_keys;
        DROP FUNCTION test_count_last_used();
        DROP TABLE test_last_used_writes;`);
    }
  });

  it("is not written for revoked or expired keys", async () => {
    const key = await createKey(owner);
    await setExpiry(key.id, -1);
    await callMe(bearer(key.secret));
    expect(await lastUsed(key.id)).toBeNull();
  });
});
