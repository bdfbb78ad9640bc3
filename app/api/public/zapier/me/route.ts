import { withApiKey } from "@/lib/api-keys/with-api-key";
import { jsonResponse } from "@/lib/http/api-error";

// Answered per key and never cached; this also spares Next its request proxy for static-rendering checks.
export const dynamic = "force-dynamic";

/** The connection test Zapier-style tools call: which account and key this is. Any valid key may call it. */
export const GET = withApiKey(
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
