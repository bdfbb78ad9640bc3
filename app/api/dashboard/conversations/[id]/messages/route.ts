import { conversationState, messageView, type MessagesPoll } from "@/app/(dashboard)/conversations/view-model";
import { withSession } from "@/lib/auth/with-session";
import { getConversation, listMessages } from "@/lib/conversations/read";
import { errorResponse, jsonResponse } from "@/lib/platform/http/api-error";

export const dynamic = "force-dynamic";

/*
 * The inbox's conversation page polls here every 1.5 s for the messages after the last one it shows
 * (docs/conversations.md explains polling over server-sent events). Signed-in users of the account
 * only: the session cookie decides the account, so another account's id is a 404 like an unknown one.
 * One page per poll; the page asks again at once while has_more is true.
 */

const PAGE_SIZE = 100;

const signedOut = () => errorResponse(401, "unauthorized", "Your session has ended. Sign in again.");

type Params = { params: Promise<{ id: string }> };

export const GET = withSession({ role: "member", signedOut }, async (request, context, { params }: Params) => {
  const after = new URL(request.url).searchParams.get("after") ?? "0";
  if (!/^\d{1,15}$/.test(after)) {
    return errorResponse(400, "invalid_request", "after must be the seq of a message.", {
      details: [{ field: "after", message: "Must be a whole number." }],
    });
  }
  const { id } = await params;
  const conversation = await getConversation(context.account.id, id);
  if (!conversation) return errorResponse(404, "not_found", "No conversation has this id.");
  const page = await listMessages(context.account.id, conversation.id, { afterSeq: Number(after), limit: PAGE_SIZE });
  const body: MessagesPoll = {
    conversation: conversationState(conversation),
    messages: page.data.map((message) => messageView(message, context.account.timezone)),
    has_more: page.hasMore,
  };
  return jsonResponse(body);
});
