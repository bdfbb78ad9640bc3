import "server-only";
import type { ApiKeyPrincipal } from "@/lib/api-keys/authenticate";
import { withApiKey } from "@/lib/api/with-api-key";
import { jsonResponse } from "@/lib/platform/http/api-error";

/**
 * GET /api/public/zapier/me — the connection test Zapier-style tools call: which account and key this
 * is. Any valid key may call it. Served by the production server's fast path and by the app route.
 */
export const zapierMe = withApiKey(async (_request, principal) => jsonResponse(connectionOf(principal)), {
  scope: null,
});

/** The answer's body: the account and the key that called (never the key's secret or hash). */
export function connectionOf({ account, key }: ApiKeyPrincipal) {
  return {
    account: { id: account.id, name: account.name },
    key: {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: key.scopes,
      expires_at: key.expiresAt?.toISOString() ?? null,
      created_at: key.createdAt.toISOString(),
    },
  };
}
