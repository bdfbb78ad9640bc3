import "server-only";
import { checkPlanLimit } from "@/lib/accounts/plan-limit";
import { PLANS } from "@/lib/accounts/plans";
import { recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/platform/db/client";
import { isUuid } from "@/lib/platform/ids";
import { fail, type Failure } from "@/lib/platform/result";
import type { CreateApiKeyInput } from "./input";
import { displayParts, generateApiKey, hashApiKey } from "./key-format";
import { sortScopes, isScope, type Scope } from "./scopes";

/*
 * The dashboard's key operations. Every function takes the account from the caller's verified session and
 * scopes every query by it, so a key id from another account matches nothing.
 */

export type Actor = { accountId: string; user: { id: string; name: string; email: string } };

export type ApiKeyState = "active" | "expired" | "revoked";

/** What the dashboard may know about a key: never the key itself, nor its hash. */
export type ApiKeySummary = {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: Scope[];
  state: ApiKeyState;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

/** Revoked wins over expired; expiry is exact to the millisecond (a key is expired from its expiry instant on). */
export function keyState(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): ApiKeyState {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

/** The dashboard shows the newest keys first; revoked keys stay listed for the record. */
const LIST_LIMIT = 500;

export async function listApiKeys(accountId: string, now: Date = new Date()): Promise<ApiKeySummary[]> {
  const rows = await db.prisma.apiKey.findMany({
    where: { accountId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: LIST_LIMIT,
    select: {
      id: true,
      name: true,
      prefix: true,
      last4: true,
      scopes: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
      createdBy: { select: { name: true } },
    },
  });
  return rows.map(({ createdBy, scopes, ...row }) => ({
    ...row,
    scopes: sortScopes(scopes.filter(isScope)),
    createdBy: createdBy?.name ?? null,
    state: keyState(row, now),
  }));
}

export type CreatedApiKey = {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: Scope[];
  expiresAt: Date | null;
  secret: string;
};

export type CreateApiKeyResult = { ok: true; key: CreatedApiKey } | Failure<"plan_limit_reached">;

const limitReached = (limit: number) =>
  fail(
    "plan_limit_reached",
    `This account already has ${limit} active API keys, the most allowed. ` +
      "Revoke a key you no longer use, then create this one.",
  );

/**
 * Creates a key and its audit entry in one transaction. The account row is locked first so that two
 * concurrent creates cannot both pass the active-key limit. The returned `secret` is the only copy.
 */
export async function createApiKey(
  actor: Actor,
  input: CreateApiKeyInput,
  now: Date = new Date(),
): Promise<CreateApiKeyResult> {
  const secret = generateApiKey();
  const { prefix, last4 } = displayParts(secret);
  const scopes = sortScopes(input.scopes);
  return db.prisma.$transaction(async (tx) => {
    const room = await checkPlanLimit(
      tx,
      actor.accountId,
      (plan) => PLANS[plan].maxActiveApiKeys,
      () =>
        tx.apiKey.count({
          where: { accountId: actor.accountId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
        }),
    );
    if (!room) throw new Error("Account not found");
    if (!room.ok) return limitReached(room.limit);

    const key = await tx.apiKey.create({
      data: {
        accountId: actor.accountId,
        name: input.name,
        keyHash: hashApiKey(secret),
        prefix,
        last4,
        scopes,
        expiresAt: input.expiresAt,
        createdById: actor.user.id,
      },
      select: { id: true },
    });
    await recordAudit(
      {
        accountId: actor.accountId,
        actor: actor.user,
        action: "api_key.created",
        target: { type: "api_key", id: key.id, label: input.name },
        metadata: { prefix, last4, scopes, expires_at: input.expiresAt?.toISOString() ?? null },
      },
      tx,
    );
    return {
      ok: true as const,
      key: { id: key.id, name: input.name, prefix, last4, scopes, expiresAt: input.expiresAt, secret },
    };
  });
}

export type RevokeApiKeyResult = { ok: true; alreadyRevoked: boolean; name: string } | Failure<"not_found">;

const KEY_NOT_FOUND = fail("not_found", "That API key was not found.");

/**
 * Revokes a key of the actor's account. From the commit on, the bearer check (which reads the database
 * on every request) refuses the key on every instance. Revoking twice is harmless and audited once.
 */
export async function revokeApiKey(actor: Actor, keyId: string, now: Date = new Date()): Promise<RevokeApiKeyResult> {
  if (!isUuid(keyId)) return KEY_NOT_FOUND;
  return db.prisma.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: keyId, accountId: actor.accountId },
      select: { name: true, prefix: true, last4: true },
    });
    if (!key) return KEY_NOT_FOUND;
    // The revoked_at condition makes a concurrent double revoke update (and audit) only once.
    const { count } = await tx.apiKey.updateMany({
      where: { id: keyId, accountId: actor.accountId, revokedAt: null },
      data: { revokedAt: now, revokedById: actor.user.id },
    });
    if (count === 0) return { ok: true as const, alreadyRevoked: true, name: key.name };
    await recordAudit(
      {
        accountId: actor.accountId,
        actor: actor.user,
        action: "api_key.revoked",
        target: { type: "api_key", id: keyId, label: key.name },
        metadata: { prefix: key.prefix, last4: key.last4 },
      },
      tx,
    );
    return { ok: true as const, alreadyRevoked: false, name: key.name };
  });
}
