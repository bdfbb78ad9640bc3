import "server-only";
import { db } from "@/lib/db/client";
import { tryDecodeCursor } from "@/lib/pagination/keyset";
import type { ListPage } from "@/lib/public-api/list";
import type { Conversation, ConversationStatus, MessageAuthor } from "./model";
import { CONVERSATION_CURSOR, listConversations } from "./read";

/*
 * The dashboard inbox: one tab's conversations, newest activity first, each with the excerpt of its
 * latest message. Pages by the same keyset cursor as the public API's list (lib/pagination/keyset.ts).
 */

/** Enough for a one-line preview; the full text is on the conversation's page. */
const EXCERPT_LENGTH = 200;

export type InboxItem = { conversation: Conversation; lastMessage: { author: MessageAuthor; text: string } | null };

export async function listInbox(accountId: string, options: { status: ConversationStatus; cursor?: string | null; limit: number }): Promise<ListPage<InboxItem>> {
  // A stale or edited cursor shows the first page rather than an error.
  const key = tryDecodeCursor(options.cursor, CONVERSATION_CURSOR.tag, CONVERSATION_CURSOR.parts);
  const page = await listConversations(accountId, {
    status: options.status,
    limit: options.limit,
    order: "desc",
    cursor: key ? { updatedAt: key[0]!, id: key[1]! } : null,
  });
  const excerpts = await latestMessages(accountId, page.data.map((conversation) => conversation.id));
  return { ...page, data: page.data.map((conversation) => ({ conversation, lastMessage: excerpts.get(conversation.id) ?? null })) };
}

/*
 * The latest message a person or the assistant wrote in each conversation (system lines such as
 * "closed" say less than the last thing said). One LIMIT 1 probe per conversation, backwards along
 * the (conversation_id, seq) index, so a long conversation costs what a short one does.
 */
async function latestMessages(accountId: string, ids: string[]): Promise<Map<string, { author: MessageAuthor; text: string }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.pool.query<{ id: string; author: MessageAuthor; text: string }>(
    `SELECT c.id, m.author, m.text
     FROM unnest($2::text[]) AS c(id)
     CROSS JOIN LATERAL (
       SELECT author, left(text, ${EXCERPT_LENGTH}) AS text FROM conversation_messages
       WHERE conversation_id = c.id AND account_id = $1 AND author <> 'system'
       ORDER BY seq DESC LIMIT 1
     ) m`,
    [accountId, ids],
  );
  return new Map(rows.map((row) => [row.id, { author: row.author, text: row.text }]));
}
