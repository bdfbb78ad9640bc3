"use server";

import { parseCreateApiKey, type CreateApiKeyFieldErrors } from "@/lib/api-keys/input";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/keys";
import type { Scope } from "@/lib/api-keys/scopes";
import { authorizeManager } from "@/lib/auth/session";

/*
 * Server actions are public POST endpoints: each one re-checks the session and the role itself and
 * takes the account only from the session, never from the form.
 *
 * Neither action revalidates the page. The create dialog refreshes the list itself once the one-time
 * reveal is closed, so no re-render can replace the dialog while the key is on screen.
 */

export type CreateApiKeyState =
  | { status: "idle" }
  | { status: "invalid"; fieldErrors: CreateApiKeyFieldErrors; formError?: string }
  | { status: "created"; key: { id: string; name: string; secret: string; prefix: string; last4: string; scopes: Scope[]; expiresAt: string | null } };

export async function createApiKeyAction(_previous: CreateApiKeyState, form: FormData): Promise<CreateApiKeyState> {
  const authorization = await authorizeManager();
  if (!authorization.ok) return { status: "invalid", fieldErrors: {}, formError: authorization.message };
  const { context } = authorization;

  const parsed = parseCreateApiKey({ name: form.get("name"), scopes: form.getAll("scopes"), expiresAt: form.get("expiresAt") });
  if (!parsed.ok) return { status: "invalid", fieldErrors: parsed.fieldErrors };

  const result = await createApiKey({ accountId: context.account.id, user: context.user }, parsed.input);
  if (!result.ok) {
    return {
      status: "invalid",
      fieldErrors: {},
      formError: `This account already has ${result.limit} active API keys, the most allowed. Revoke a key you no longer use, then create this one.`,
    };
  }
  const { key } = result;
  return { status: "created", key: { ...key, expiresAt: key.expiresAt?.toISOString() ?? null } };
}

export type RevokeApiKeyState = { ok: true; message: string } | { ok: false; message: string };

export async function revokeApiKeyAction(keyId: unknown): Promise<RevokeApiKeyState> {
  const authorization = await authorizeManager();
  if (!authorization.ok) return { ok: false, message: authorization.message };
  const { context } = authorization;
  const result = await revokeApiKey({ accountId: context.account.id, user: context.user }, typeof keyId === "string" ? keyId : "");
  if (!result.ok) return { ok: false, message: "That API key was not found." };
  return { ok: true, message: result.alreadyRevoked ? `"${result.name}" was already revoked.` : `Revoked "${result.name}". It stops working immediately.` };
}
