import { db } from "@/lib/platform/db/client";
import { requestHandoff, startConversation } from "@/lib/conversations/visitor";
import { getOrCreateWidget } from "@/lib/conversations/widget";

/* Conversations in a given state, for the inbox tests. */

export const visitorSession = {
  pageUrl: "https://example.com/events?utm=1",
  referrer: "https://search.example/",
  userAgent: "Mozilla/5.0 test",
  locale: "en-GB",
};

export async function openConversation(accountId: string, state: "bot" | "handoff_requested" = "handoff_requested") {
  const widget = await getOrCreateWidget(accountId);
  const { conversation } = await startConversation(widget, visitorSession);
  if (state === "handoff_requested") await requestHandoff(widget, conversation);
  return { widget, conversation };
}

export const messagesOf = async (conversationId: string) =>
  (
    await db.pool.query<{ author: string; author_name: string | null; text: string }>(
      `SELECT author, author_name, text FROM conversation_messages WHERE conversation_id = $1 ORDER BY seq`,
      [conversationId],
    )
  ).rows;

export const statusOf = async (conversationId: string) =>
  (await db.pool.query<{ status: string }>(`SELECT status FROM conversations WHERE id = $1`, [conversationId])).rows[0]
    ?.status;
