import "server-only";
import { withApiKey } from "@/lib/api/with-api-key";
import { jsonResponse } from "@/lib/platform/http/api-error";

/**
 * GET /api/public/zapier/me — the connection test Zapier-style tools call: which account and key this
 * is. Any valid key may call it. Served by the production server's fast path and by the app route.
 */
export const zapierMe = withApiKey(
  async (_request, { account, key }) =>
    jsonResponse({
      account: { id: account.id, name: account.name },
      key: {
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        scopes: key.scopes,
        expires_at: key.expiresAt?.toISOString() ?? null,
        created_at: key.createdAt.toISOString(),
      },
    }),
  { scope: null },
);
