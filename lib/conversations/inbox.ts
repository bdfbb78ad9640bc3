import "server-only";
import { db } from "@/lib/platform/db/client";
import { tryDecodeCursor } from "@/lib/platform/pagination/keyset";
import type { ListPage } from "@/lib/api/list";
import { leadsMatchingClaims, type MatchingLead } from "./claims";
import type { Conversation, ConversationStatus, MessageAuthor } from "./model";
import { CONVERSATION_CURSOR, listConversations } from "./read";

/*
 * The dashboard inbox: one tab's conversations, newest activity first, each with what it is about (the
 * visitor's first message) and where it stands (its latest message). Pages by the same keyset cursor
 * as the public API's list (lib/platform/pagination/keyset.ts). A conversation whose visitor left the email of a
 * lead it is not linked to carries that lead, for the "not verified" note (lib/conversations/claims.ts).
 */

/** Enough for a one-line preview; the full text is on the conversation's page. */
const EXCERPT_LENGTH = 200;

export type Excerpt = { id: string; author: MessageAuthor; authorName: string | null; text: string };
export type InboxItem = {
  conversation: Conversation;
  firstQuestion: Excerpt | null;
  lastMessage: Excerpt | null;
  /** A lead with the email the visitor left, not linked to the conversation. */
  matchingLead: MatchingLead | null;
};

/** Whether a page link's cursor is one this inbox issued: a stale or edited one shows the first page. */
export function isInboxCursor(cursor: string | null): boolean {
  return cursor === null || tryDecodeCursor(cursor, CONVERSATION_CURSOR.tag, CONVERSATION_CURSOR.parts) !== null;
}

export async function listInbox(
  accountId: string,
  options: { status: ConversationStatus; cursor?: string | null; limit: number; search?: string | null },
): Promise<ListPage<InboxItem>> {
  // A stale or edited cursor shows the first page rather than an error.
  const key = tryDecodeCursor(options.cursor, CONVERSATION_CURSOR.tag, CONVERSATION_CURSOR.parts);
  const page = await listConversations(accountId, {
    status: options.status,
    limit: options.limit,
    order: "desc",
    cursor: key ? { updatedAt: key[0]!, id: key[1]! } : null,
    search: options.search,
  });
  const [excerpts, matches] = await Promise.all([
    excerptsOf(
      accountId,
      page.data.map((conversation) => conversation.id),
    ),
    leadsMatchingClaims(accountId, page.data),
  ]);
  return {
    ...page,
    data: page.data.map((conversation) => ({
      conversation,
      firstQuestion: null,
      lastMessage: null,
      ...excerpts.get(conversation.id),
      matchingLead: matches.get(conversation.id) ?? null,
    })),
  };
}

/*
 * Per conversation: the visitor's first message, and the latest message a person or the assistant
 * wrote (system lines such as "closed" say less than the last thing said). Each is one LIMIT 1 probe
 * along the (conversation_id, seq) index, so a long conversation costs what a short one does.
 */
async function excerptsOf(
  accountId: string,
  ids: string[],
): Promise<Map<string, { firstQuestion: Excerpt | null; lastMessage: Excerpt | null }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.replica.query<{
    id: string;
    first_id: string | null;
    first_text: string | null;
    last_id: string | null;
    last_author: MessageAuthor | null;
    last_name: string | null;
    last_text: string | null;
  }>(
    `SELECT c.id, f.id AS first_id, f.text AS first_text, l.id AS last_id, l.author AS last_author, l.author_name
      AS last_name, l.text AS last_text
     FROM unnest($2::text[]) AS c(id)
     LEFT JOIN LATERAL (
       SELECT id, left(text, ${EXCERPT_LENGTH}) AS text FROM conversation_messages
       WHERE conversation_id = c.id AND account_id = $1 AND author = 'visitor' ORDER BY seq LIMIT 1
     ) f ON true
     LEFT JOIN LATERAL (
       SELECT id, author, author_name, left(text, ${EXCERPT_LENGTH}) AS text FROM conversation_messages
       WHERE conversation_id = c.id AND account_id = $1 AND author <> 'system' ORDER BY seq DESC LIMIT 1
     ) l ON true`,
    [accountId, ids],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        firstQuestion: row.first_id
          ? { id: row.first_id, author: "visitor" as const, authorName: null, text: row.first_text ?? "" }
          : null,
        lastMessage:
          row.last_id && row.last_author
            ? { id: row.last_id, author: row.last_author, authorName: row.last_name, text: row.last_text ?? "" }
            : null,
      },
    ]),
  );
}
