import { POST as closeExport } from "@/app/api/public/conversations/[id]/close/route";
import { GET as messagesExport, POST as postMessageExport } from "@/app/api/public/conversations/[id]/messages/route";
import { GET as getExport } from "@/app/api/public/conversations/[id]/route";
import { GET as listExport } from "@/app/api/public/conversations/route";
import type { Scope } from "@/lib/api-keys/scopes";
import { requestHandoff, startConversation } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";
import { db } from "@/lib/platform/db/client";
import { createKey } from "../../support/api-keys";
import type { TestAccount } from "../../support/factories";
import { errorOf, idParams, noParams, publicRequest, type Body, type Options } from "../../support/public-api";

/* The conversations API called through its route exports, and conversations prepared by the domain. */

export const api = {
  list: (secret: string, query = "") => listExport(publicRequest("GET", `/conversations${query}`, secret), noParams),
  get: (secret: string, id: string) => getExport(publicRequest("GET", `/conversations/${id}`, secret), idParams(id)),
  messages: (secret: string, id: string, query = "") =>
    messagesExport(publicRequest("GET", `/conversations/${id}/messages${query}`, secret), idParams(id)),
  post: (secret: string, id: string, body: Body, options?: Options) =>
    postMessageExport(publicRequest("POST", `/conversations/${id}/messages`, secret, body, options), idParams(id)),
  close: (secret: string, id: string, options?: Options) =>
    closeExport(publicRequest("POST", `/conversations/${id}/close`, secret, undefined, options), idParams(id)),
};

export async function conversationKey(
  owner: TestAccount,
  scopes: Scope[] = ["read:conversations", "write:conversations"],
): Promise<string> {
  return (await createKey(owner, { name: "Conversations", scopes })).secret;
}

const session = {
  pageUrl: "https://example.com/events",
  referrer: "https://search.example/",
  userAgent: "Mozilla/5.0 (test)",
  locale: "en-GB",
};

/** A conversation as a visitor starts it, in `bot` state; `handoff` also asks for a person. */
export async function startedConversation(owner: TestAccount, options: { handoff?: boolean } = {}) {
  const widget = await getOrCreateWidget(owner.accountId);
  const { conversation } = await startConversation(widget, session);
  if (!options.handoff) return conversation;
  const asked = await requestHandoff(widget, conversation);
  if (!asked.ok) throw new Error("could not request a handoff");
  return asked.conversation;
}

export async function messageCount(conversationId: string): Promise<number> {
  const { rows } = await db.pool.query<{ count: string }>(
    "SELECT count(*) FROM conversation_messages WHERE conversation_id = $1",
    [conversationId],
  );
  return Number(rows[0].count);
}

/** The outbound notifications written for an account, oldest first. */
export async function notifications(accountId: string, type?: string) {
  const { rows } = await db.pool.query<{ type: string; payload: { data: Record<string, unknown> } }>(
    "SELECT type, payload FROM outbound_messages WHERE account_id = $1 AND " +
      "($2::text IS NULL OR type = $2) ORDER BY created_at, id",
    [accountId, type ?? null],
  );
  return rows;
}

export { errorOf };
