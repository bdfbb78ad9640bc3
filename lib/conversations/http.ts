import "server-only";
import type { ApiKeyContext } from "@/lib/api/with-api-key";
import { notFoundResponse } from "@/lib/api/with-api-key";
import { agentReply, closeConversation } from "@/lib/conversations/agent";
import { serializeConversation, serializeMessage, type ConversationStatus } from "@/lib/conversations/model";
import { getConversation, listConversations, listMessages } from "@/lib/conversations/read";
import { listConversationsQuerySchema, listMessagesQuerySchema, postMessageSchema } from "@/lib/conversations/schemas";
import { errorResponse, jsonResponse } from "@/lib/platform/http/api-error";
import { readRawBody } from "@/lib/api/body";
import { idempotentJsonWrite, withIdempotency } from "@/lib/api/idempotency";
import { listResponse } from "@/lib/api/list";
import { getByIdRoute, readQuery } from "@/lib/api/request";
import { invalidRequestResponse, parseWith } from "@/lib/api/validation";

/*
 * The conversations paths of the public API (docs/conversations.md). Thin: the domain
 * (lib/conversations) holds the states and the locking; these map requests and answers. Every read and
 * write is scoped by the key's account, and another account's id is 404 like an unknown one.
 */

type IdParams = { id: string };

const conversationNotFound = () => notFoundResponse("conversation");

export function notInHandoffResponse(status: ConversationStatus): Response {
  const message =
    status === "closed"
      ? "The conversation is closed; nothing was sent."
      : "No person was asked for in this conversation yet (it is with the assistant); nothing was sent.";
  return errorResponse(409, "conversation_not_in_handoff", message, {
    details: [{ status, message: "Messages can be sent while the status is handoff_requested or handoff_active." }],
  });
}

/** GET /api/public/conversations (read:conversations) */
export async function listConversationsRoute(request: Request, context: ApiKeyContext<unknown>): Promise<Response> {
  const query = readQuery(request, listConversationsQuerySchema);
  if (!query.ok) return query.response;
  const { limit, order, cursor, status, updated_after } = query.value;
  const page = await listConversations(context.account.id, {
    limit,
    order,
    cursor,
    status,
    updatedAfter: updated_after,
  });
  return listResponse({ ...page, data: page.data.map(serializeConversation) });
}

/** GET /api/public/conversations/{id} (read:conversations) */
export const getConversationRoute = getByIdRoute("conversation", getConversation, serializeConversation);

/** GET /api/public/conversations/{id}/messages (read:conversations): oldest first. */
export async function listMessagesRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  const query = readQuery(request, listMessagesQuerySchema);
  if (!query.ok) return query.response;
  // An empty page would not tell "no messages" from "not yours": look the conversation up first.
  if (!(await getConversation(context.account.id, id))) return conversationNotFound();
  const page = await listMessages(context.account.id, id, {
    limit: query.value.limit,
    afterSeq: query.value.cursor?.afterSeq,
  });
  return listResponse({ ...page, data: page.data.map(serializeMessage) });
}

/** POST /api/public/conversations/{id}/messages (write:conversations) → 201, or 409 outside handoff. */
export async function postMessageRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  return idempotentJsonWrite(request, context, async (body) => {
    const input = parseWith(postMessageSchema, body);
    if (!input.ok) return invalidRequestResponse(input.details);
    const result = await agentReply(context.account.id, id, {
      text: input.value.text,
      authorName: input.value.author_name,
    });
    if (result.ok) return jsonResponse(serializeMessage(result.message), { status: 201 });
    return result.code === "not_found" ? conversationNotFound() : notInHandoffResponse(result.status);
  });
}

/** POST /api/public/conversations/{id}/close (write:conversations): answers the conversation; closing twice is fine. */
export async function closeConversationRoute(request: Request, context: ApiKeyContext<IdParams>): Promise<Response> {
  const { id } = await context.params;
  // No body is needed (any is ignored), but it is part of the Idempotency-Key fingerprint like every POST's.
  const raw = await readRawBody(request);
  if (!raw.ok) return raw.response;
  return withIdempotency(request, context, raw.bytes, async () => {
    const result = await closeConversation(context.account.id, id, "api");
    return result.ok ? jsonResponse(serializeConversation(result.conversation)) : conversationNotFound();
  });
}
