"use server";

import { z } from "zod";
import { defineAction, fail, formList, ok } from "@/lib/actions/action";
import { CHECK_FIELDS } from "@/lib/actions/result";
import { parseCreateApiKey } from "@/lib/api-keys/input";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/keys";
import type { Scope } from "@/lib/api-keys/scopes";

/*
 * The account always comes from the session (defineAction), never from the form. Neither action
 * revalidates the page: the create dialog refreshes the list itself once the one-time reveal is closed,
 * so no re-render can replace the dialog while the key is on screen.
 */

export type CreatedApiKey = {
  id: string;
  name: string;
  secret: string;
  prefix: string;
  last4: string;
  scopes: Scope[];
  expiresAt: string | null;
};

// The form's shape only; what the values must be is checked by parseCreateApiKey, shared with the client.
const createInput = z.object({ name: z.unknown(), scopes: formList(z.unknown()), expiresAt: z.unknown() });

export const createApiKeyAction = defineAction({ role: "manager", input: createInput }, async (input, context) => {
  const parsed = parseCreateApiKey(input);
  if (!parsed.ok) return fail(CHECK_FIELDS, parsed.fieldErrors);
  const result = await createApiKey({ accountId: context.account.id, user: context.user }, parsed.input);
  if (!result.ok) return fail(result.message);
  const { key } = result;
  return ok<CreatedApiKey>({ ...key, expiresAt: key.expiresAt?.toISOString() ?? null });
});

export const revokeApiKeyAction = defineAction(
  { role: "manager", input: z.object({ keyId: z.string() }) },
  async ({ keyId }, context) => {
    const result = await revokeApiKey({ accountId: context.account.id, user: context.user }, keyId);
    if (!result.ok) return fail(result.message);
    return ok({
      message: result.alreadyRevoked
        ? `"${result.name}" was already revoked.`
        : `Revoked "${result.name}". It stops working immediately.`,
    });
  },
);
