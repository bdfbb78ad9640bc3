import { createApiKey, type CreatedApiKey } from "@/lib/api-keys/keys";
import type { Scope } from "@/lib/api-keys/scopes";
import { db } from "@/lib/platform/db/client";
import type { TestAccount } from "./factories";

/** A key created the way the dashboard creates it (with its audit entry). */
export async function createKey(
  owner: TestAccount,
  options: { name?: string; scopes?: Scope[]; expiresAt?: Date | null } = {},
): Promise<CreatedApiKey> {
  const result = await createApiKey(
    { accountId: owner.accountId, user: owner.user },
    { name: options.name ?? "Zapier", scopes: options.scopes ?? ["webhooks"], expiresAt: options.expiresAt ?? null },
  );
  if (!result.ok) throw new Error(`could not create a key: ${result.code}`);
  return result.key;
}

/** Moves a key's expiry to `seconds` from the database's now (negative: in the past). */
export async function setExpiry(keyId: string, seconds: number): Promise<void> {
  await db.pool.query("UPDATE api_keys SET expires_at = now() + make_interval(secs => $2) WHERE id = $1", [
    keyId,
    seconds,
  ]);
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
