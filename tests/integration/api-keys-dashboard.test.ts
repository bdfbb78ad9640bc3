import { beforeEach, describe, expect, it } from "vitest";
import { createApiKeyAction, revokeApiKeyAction } from "@/app/(dashboard)/settings/api-keys/actions";
import ApiKeysPage from "@/app/(dashboard)/settings/api-keys/page";
import { hashApiKey } from "@/lib/api-keys/key-format";
import { db } from "@/lib/platform/db/client";
import { createKey } from "../support/api-keys";
import { addMember, createAccount, signedInOwner } from "../support/factories";
import { signInAs, signOut } from "../support/request-context";
import { renderedText } from "../support/rendered-text";

function form(values: { name?: string; scopes?: string[]; expiresAt?: string }) {
  const data = new FormData();
  data.set("name", values.name ?? "Zapier");
  for (const scope of values.scopes ?? ["webhooks"]) data.append("scopes", scope);
  data.set("expiresAt", values.expiresAt ?? "");
  return data;
}

const keyCount = (accountId: string) => db.prisma.apiKey.count({ where: { accountId } });
// Sign-up records entries of its own (the account's first webhook source); count only key entries.
const auditCount = (accountId: string) => db.prisma.auditLog.count({ where: { accountId, targetType: "api_key" } });

/** Every row of every table, as text, searched for the value. */
async function databaseContains(value: string): Promise<string[]> {
  const { rows: tables } = await db.pool.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM "${name}" t WHERE t::text LIKE '%' || $1 || '%'`,
      [value],
    );
    if (rows[0].n > 0) found.push(name);
  }
  return found;
}

beforeEach(() => signOut());

describe("creating a key", () => {
  it("returns the full key once, stores only its hash, display parts and an audit entry", async () => {
    const owner = await signedInOwner();
    const state = await createApiKeyAction(
      form({
        name: "  Zapier – leads ",
        scopes: ["write:leads", "webhooks", "read:leads"],
        expiresAt: "2099-12-31T22:59:59.999Z",
      }),
    );
    expect(state.ok).toBe(true);
    if (!state.ok) return;
    const { secret } = state.data;
    expect(secret).toMatch(/^ik_live_[0-9A-Za-z]{38}$/);

    const row = await db.prisma.apiKey.findFirstOrThrow({ where: { id: state.data.id } });
    expect(row).toMatchObject({
      accountId: owner.accountId,
      name: "Zapier – leads",
      keyHash: hashApiKey(secret),
      prefix: secret.slice(0, 12),
      last4: secret.slice(-4),
      scopes: ["read:leads", "write:leads", "webhooks"],
      expiresAt: new Date("2099-12-31T22:59:59.999Z"),
      createdById: owner.user.id,
      lastUsedAt: null,
      revokedAt: null,
    });
    const audit = await db.prisma.auditLog.findMany({ where: { accountId: owner.accountId, targetType: "api_key" } });
    expect(audit).toEqual([
      expect.objectContaining({
        action: "api_key.created",
        actorId: owner.user.id,
        targetType: "api_key",
        targetId: row.id,
        targetLabel: "Zapier – leads",
      }),
    ]);
  });

  it("leaves the full key nowhere in the database, nor in what the page renders afterwards", async () => {
    await signedInOwner();
    const state = await createApiKeyAction(form({}));
    if (!state.ok) throw new Error("not created");
    const { secret } = state.data;
    expect(await databaseContains(secret)).toEqual([]);
    // Not even the random part without the fixed prefix.
    expect(await databaseContains(secret.slice(8, 40))).toEqual([]);
    // The prefix is stored on purpose, for identification.
    expect(await databaseContains(secret.slice(0, 12))).toEqual(expect.arrayContaining(["api_keys"]));

    // Everything the page hands to the browser goes through its element tree's props.
    const page = await ApiKeysPage();
    const serialised = renderedText(page);
    expect(serialised).toContain(secret.slice(0, 12));
    expect(serialised).toContain(secret.slice(-4));
    expect(serialised).not.toContain(secret);
    expect(serialised).not.toContain(hashApiKey(secret));
  });

  it.each([
    ["an empty name", { name: "" }, "name", "Enter a name for the key."],
    ["a 101-character name", { name: "n".repeat(101) }, "name", "Use at most 100 characters."],
    ["no scope", { scopes: [] }, "scopes", "Choose at least one scope."],
    [
      "an unknown scope",
      { scopes: ["read:leads", "admin:everything"] },
      "scopes",
      expect.stringContaining("Unknown scope"),
    ],
    [
      "an expiry in the past",
      { expiresAt: new Date(Date.now() - 60_000).toISOString() },
      "expiresAt",
      "Choose a date in the future.",
    ],
    [
      "yesterday's date",
      { expiresAt: new Date(Date.now() - 86_400_000 * 2).toISOString().slice(0, 10) },
      "expiresAt",
      "Choose a date in the future.",
    ],
  ])("refuses %s with a field error and creates nothing", async (_label, values, field, message) => {
    const owner = await signedInOwner();
    const state = await createApiKeyAction(form(values));
    expect(state).toEqual({ ok: false, error: "Check the fields marked below.", fieldErrors: { [field]: [message] } });
    expect(await keyCount(owner.accountId)).toBe(0);
    expect(await auditCount(owner.accountId)).toBe(0);
  });

  it("refuses the 101st active key with a clear message; revoked and expired keys do not count", async () => {
    const owner = await signedInOwner();
    // 100 keys straight into the table (fast), one of them expired: 99 active; the 100th comes through the action.
    await db.pool.query(
      `INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, scopes, expires_at)
       SELECT $1, 'bulk ' || n, md5(random()::text || n), 'ik_live_bulk', 'xxxx', ARRAY['webhooks'], CASE WHEN n = 1
         THEN now() - interval '1 day' END
       FROM generate_series(1, 100) AS n`,
      [owner.accountId],
    );
    expect((await createApiKeyAction(form({ name: "100th" }))).ok).toBe(true);
    const refused = await createApiKeyAction(form({ name: "101st" }));
    expect(refused).toEqual({
      ok: false,
      error:
        "This account already has 100 active API keys, the most allowed. " +
        "Revoke a key you no longer use, then create this one.",
    });
    expect(await db.prisma.apiKey.count({ where: { accountId: owner.accountId, name: "101st" } })).toBe(0);

    const oldest = await db.prisma.apiKey.findFirstOrThrow({ where: { accountId: owner.accountId, name: "bulk 2" } });
    expect((await revokeApiKeyAction({ keyId: oldest.id })).ok).toBe(true);
    expect((await createApiKeyAction(form({ name: "101st" }))).ok).toBe(true);
  });

  it("holds the limit when creates race each other", async () => {
    const owner = await signedInOwner();
    await db.pool.query(
      `INSERT INTO api_keys (account_id, name, key_hash, prefix, last4, scopes)
       SELECT $1, 'bulk ' || n, md5(random()::text || n), 'ik_live_bulk', 'xxxx', ARRAY['webhooks']
         FROM generate_series(1, 95) AS n`,
      [owner.accountId],
    );
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createApiKeyAction(form({ name: `race ${i}` }))),
    );
    expect(results.filter((state) => state.ok)).toHaveLength(5);
    expect(await keyCount(owner.accountId)).toBe(100);
  });

  it("changes nothing without a session, or for a member", async () => {
    const owner = await createAccount();
    const member = await addMember(owner.accountId, "member");
    expect(await createApiKeyAction(form({}))).toEqual({ ok: false, error: "Your session has ended. Sign in again." });
    await signInAs(member);
    expect(await createApiKeyAction(form({}))).toEqual({ ok: false, error: "Only owners and admins can do this." });
    expect(await keyCount(owner.accountId)).toBe(0);
  });

  it("lets an admin create keys", async () => {
    const owner = await createAccount();
    const admin = await addMember(owner.accountId, "admin");
    await signInAs(admin);
    expect((await createApiKeyAction(form({}))).ok).toBe(true);
    expect((await db.prisma.apiKey.findFirstOrThrow({ where: { accountId: owner.accountId } })).createdById).toBe(
      admin.id,
    );
  });
});

describe("revoking a key", () => {
  it("revokes once, records who did it, and is harmless to repeat", async () => {
    const owner = await createAccount();
    const key = await createKey(owner, { name: "CRM sync" });
    await signInAs(owner.user);
    expect(await revokeApiKeyAction({ keyId: key.id })).toEqual({
      ok: true,
      data: { message: 'Revoked "CRM sync". It stops working immediately.' },
    });
    const row = await db.prisma.apiKey.findFirstOrThrow({ where: { id: key.id } });
    expect(row.revokedAt).toBeInstanceOf(Date);
    expect(row.revokedById).toBe(owner.user.id);
    expect(await revokeApiKeyAction({ keyId: key.id })).toEqual({
      ok: true,
      data: { message: '"CRM sync" was already revoked.' },
    });
    const actions = (
      await db.prisma.auditLog.findMany({
        where: { accountId: owner.accountId, targetType: "api_key" },
        orderBy: { createdAt: "asc" },
      })
    ).map((entry) => entry.action);
    expect(actions).toEqual(["api_key.created", "api_key.revoked"]);
  });

  it("changes nothing for another account's key id, an invalid id, a member, or no session", async () => {
    const owner = await createAccount();
    const other = await createAccount("Mallory");
    const theirs = await createKey(other);
    const member = await addMember(owner.accountId, "member");
    const mine = await createKey(owner);

    await signInAs(owner.user);
    expect(await revokeApiKeyAction({ keyId: theirs.id })).toEqual({ ok: false, error: "That API key was not found." });
    expect(await revokeApiKeyAction({ keyId: "not-a-uuid" })).toEqual({
      ok: false,
      error: "That API key was not found.",
    });
    expect(await revokeApiKeyAction({ id: mine.id })).toMatchObject({
      ok: false,
      fieldErrors: { keyId: [expect.any(String)] },
    });
    await signInAs(member);
    expect(await revokeApiKeyAction({ keyId: mine.id })).toEqual({
      ok: false,
      error: "Only owners and admins can do this.",
    });
    signOut();
    expect(await revokeApiKeyAction({ keyId: mine.id })).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });

    const rows = await db.prisma.apiKey.findMany({ where: { id: { in: [theirs.id, mine.id] } } });
    expect(rows.map((row) => row.revokedAt)).toEqual([null, null]);
    expect(
      await db.prisma.auditLog.count({
        where: { action: "api_key.revoked", accountId: { in: [owner.accountId, other.accountId] } },
      }),
    ).toBe(0);
  });
});

describe("the page", () => {
  it("shows members the list without create or revoke controls", async () => {
    const owner = await createAccount();
    await createKey(owner, { name: "Read-only view" });
    const member = await addMember(owner.accountId, "member");
    await signInAs(member);
    const serialised = renderedText(await ApiKeysPage());
    expect(serialised).toContain("Read-only view");
    expect(serialised).toContain('"canManage":false');
    expect(serialised).toContain("Only owners and admins can create or revoke them.");
  });
});
